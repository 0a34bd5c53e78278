// POST /api/mcp: the JSON-RPC 2.0 envelope of the Model Context Protocol endpoint (one message
// per request; the tools' own inputs are declared in src/mcp and published over tools/list).
import { Type } from 'typebox';

const REQUEST_EXAMPLE = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'lookup_company', arguments: { orgNumber: '923609016', country: 'NO' } },
};

const RESPONSE_EXAMPLE = {
  jsonrpc: '2.0',
  id: 2,
  result: {
    content: [{ type: 'text', text: '{"orgNumber":"923609016","country":"NO","name":"EQUINOR ASA", …}' }],
    structuredContent: {
      orgNumber: '923609016',
      country: 'NO',
      name: 'EQUINOR ASA',
      orgFormCode: 'ASA',
      employeeCount: 21408,
    },
  },
};

export const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    method: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'initialize, notifications/initialized, tools/list, tools/call, ping',
      }),
    ),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Unknown()),
  },
  { description: 'One JSON-RPC 2.0 message (batches are not accepted)', examples: [REQUEST_EXAMPLE] },
);

export const JsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
    ),
  },
  { description: 'The JSON-RPC response (application/json)', examples: [RESPONSE_EXAMPLE] },
);

export const JsonRpcAccepted = Type.Null({ description: 'Accepted: the message was a notification or a response' });
