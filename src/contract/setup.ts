// GET /setup?key=…: the setup page of a key (server-rendered, hidden from the OpenAPI document).
import { Type } from 'typebox';

// A repeated ?key= arrives as an array: accepted here, so the route answers with its HTML page
// (a link without a live key gets a 4xx page), not with a JSON validation error.
export const SetupQuery = Type.Object({ key: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])) });
