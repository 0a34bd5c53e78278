// POST /internal/operator: the token header of the operator hand-off (hidden from the OpenAPI
// document). The body is the typed command of ops/command.ts.
import { Type } from 'typebox';

export const OperatorHeaders = Type.Object({ 'x-operator-token': Type.Optional(Type.String()) });
