// The MCP tool adapter (src/mcp/tool-kit.ts): tools declared with TypeBox are published as their
// JSON Schema and their arguments are prepared (unknown fields dropped, marked strings trimmed,
// defaults filled) and checked with Ajv before the tool runs, over the SDK's low-level Server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { StringEnum } from '../../src/contract/common.ts';
import {
  Country,
  Defaulted,
  Described,
  serveTools,
  Trimmed,
  type ToolDeps,
  type ToolGroup,
} from '../../src/mcp/tool-kit.ts';

const Input = Type.Object({
  orgNumber: Trimmed(Type.String({ pattern: '^[0-9]{9}$' })),
  country: Country,
  compact: Defaulted(Type.Boolean({ default: false })),
  sort: Type.Optional(StringEnum(['name', 'size'] as const)),
  items: Type.Optional(Type.Array(Type.Object({ name: Trimmed(Type.String({ minLength: 1 })) }))),
  keyed: Type.Optional(
    Type.Record(Type.String({ pattern: '^[a-z]+$' }), Type.Object({ n: Type.Integer() }), {
      propertyNames: { pattern: '^[a-z]+$' },
    }),
  ),
  note: Described(Type.Optional(Type.String()), 'In the tool’s own words'),
});

const seen: unknown[] = [];
const echo: ToolGroup = (server) => {
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Returns its arguments.', inputSchema: Input, annotations: { readOnlyHint: true } },
    async (args) => {
      seen.push(args);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  );
};

const open: Client[] = [];
afterEach(async () => {
  seen.length = 0;
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(): Promise<Client> {
  const server = new Server({ name: 'test', version: '1' });
  serveTools(server, [echo], {} as ToolDeps, 'Cost: one call.');
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  open.push(client);
  return client;
}

const call = async (client: Client, args: Record<string, unknown>) =>
  (await client.callTool({ name: 'echo', arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP tool adapter', () => {
  it('publishes the TypeBox schema as the tool’s JSON Schema, with the note appended', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools).toHaveLength(1);
    const [tool] = tools;
    expect(tool.description).toBe('Returns its arguments. Cost: one call.');
    expect(tool.inputSchema).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['orgNumber'],
      properties: {
        country: { type: 'string', enum: ['NO', 'FI', 'SE', 'DK'], default: 'NO' },
        compact: { type: 'boolean', default: false },
        note: { type: 'string', description: 'In the tool’s own words' },
      },
    });
    // Optional with a default: not required on the wire.
    expect(tool.inputSchema.required).not.toContain('country');
    expect(tool.annotations).toEqual({ readOnlyHint: true });
  });

  it('fills defaults, trims marked strings and drops unknown fields before the tool runs', async () => {
    const client = await connect();
    const r = await call(client, {
      orgNumber: ' 923609016 ',
      items: [{ name: '  Fjord Bygg ', extra: 1 }],
      keyed: { ab: { n: 1, stray: true } },
      includeDeleted: true,
    });
    expect(r.isError, text(r)).toBeFalsy();
    expect(seen).toEqual([
      {
        orgNumber: '923609016',
        country: 'NO',
        compact: false,
        items: [{ name: 'Fjord Bygg' }],
        keyed: { ab: { n: 1 } },
      },
    ]);
  });

  it('refuses bad arguments as an isError result naming each argument, and never runs the tool', async () => {
    const client = await connect();
    const wrongType = await call(client, { orgNumber: 923609016 });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toMatch(/Invalid arguments for tool echo: orgNumber: must be string/);
    const several = await call(client, { country: 'XX', sort: 'age', items: [{ name: '   ' }] });
    expect(several.isError).toBe(true);
    expect(text(several)).toContain('orgNumber: is required');
    expect(text(several)).toContain('country: must be one of NO, FI, SE, DK');
    expect(text(several)).toContain('sort: must be one of name, size');
    expect(text(several)).toContain('items.0.name: must NOT have fewer than 1 characters');
    const badKey = await call(client, { orgNumber: '923609016', keyed: { 'Not ok': { n: 1 } } });
    expect(badKey.isError).toBe(true);
    expect(text(badKey)).toContain('keyed');
    expect(seen).toEqual([]);
  });

  it('answers an unknown tool with an isError result', async () => {
    const client = await connect();
    const r = (await client.callTool({ name: 'nope', arguments: {} })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('Tool nope not found');
  });
});
