// What every MCP tool shares: the caller it acts for, the one adapter that declares tools with
// TypeBox schemas (the contract's JSON Schema, published as each tool's inputSchema and checked
// with Ajv, as the REST layer checks its bodies), the argument pieces that mirror the REST
// parameters, and one wrapper that turns a service result into a tool result (cut to the REST
// response schema) and any failure into an `isError` result with a clear, safe message.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError, ERROR_CATALOGUE } from '../errors.ts';
import type { ReferenceData } from '../domain/reference-data.ts';
import { scopeOfTool } from '../domain/oauth.ts';
import { NorwegianOrgNumber as RestNorwegianOrgNumber, StringEnum } from '../contract/common.ts';
import { COMPANY_SCHEMAS } from '../contract/company.ts';
import { LookupParams } from '../contract/company-lookup.ts';
import { OwnershipOrgNumberParams, Year as RegisterYear } from '../contract/shareholders.ts';
import type { AuthContext } from '../services/access/key-auth.ts';
import type { Services } from '../runtime/services.ts';

export interface ToolDeps {
  services: Services;
  reference: ReferenceData;
  /** The key the MCP request was authenticated with: tier rules apply to every tool. */
  caller: AuthContext;
  log: ToolLog;
}

/** The request's logger (pino or Fastify's): only errors are logged here. */
export interface ToolLog {
  error(obj: object, msg: string): void;
}

// ---- the adapter: tools declared with TypeBox, served on the SDK's low-level Server ----

export interface ToolConfig<S extends TObject> {
  title: string;
  description: string;
  /** Declare it once at module level: its Ajv validator is compiled once per process. */
  inputSchema: S;
  annotations: ToolAnnotations;
}

export interface ToolRegistry {
  registerTool<S extends TObject>(
    name: string,
    config: ToolConfig<S>,
    run: (args: Static<S>) => Promise<CallToolResult>,
  ): void;
}

export type ToolGroup = (server: ToolRegistry, deps: ToolDeps) => void;

const TRIM = Symbol('trim');

/** A copy with every own key (TypeBox keeps its `optional` mark hidden) plus `extra`. */
function copied<S extends TSchema>(schema: S, extra: object): S {
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as S, extra);
}

/** A string argument trimmed before it is checked (a pasted " 923609016 " is the number). */
export function Trimmed<S extends TSchema>(schema: S): S {
  return copied(schema, { [TRIM]: true });
}

/** A contract schema described in the tool's own words (an agent reads them, not the REST docs). */
export function Described<S extends TSchema>(schema: S, description: string): S {
  return copied(schema, { description });
}

/**
 * Optional on the wire, with a `default` that validation fills in: the tool always sees it set
 * (the type says so; JSON Schema's `required` would tell clients they must send it).
 */
export function Defaulted<S extends TSchema>(schema: S): S {
  return Type.Optional(schema) as unknown as S;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Arguments as the tool receives them: unknown fields of a declared object dropped (a tool
 * passes its filters on to the service as they are), marked strings trimmed. Records keep
 * their keys: Ajv checks them against the record's key pattern.
 */
function prepared(schema: TSchema, value: unknown): unknown {
  const s = schema as Node & { [TRIM]?: boolean };
  if (typeof value === 'string') return s[TRIM] ? value.trim() : value;
  if (Array.isArray(value)) return isNode(s.items) ? value.map((v) => prepared(s.items as TSchema, v)) : value;
  if (!isNode(value)) return value;
  const properties = isNode(s.properties) ? (s.properties as Record<string, TSchema>) : undefined;
  const rest = isNode(s.additionalProperties) ? (s.additionalProperties as TSchema) : undefined;
  const patterns = isNode(s.patternProperties) ? Object.values(s.patternProperties as Record<string, TSchema>) : [];
  const open = rest !== undefined || s.additionalProperties === true || s.patternProperties !== undefined;
  const out: Node = {};
  for (const [k, v] of Object.entries(value)) {
    const own = properties?.[k] ?? rest ?? patterns[0];
    if (own) out[k] = prepared(own, v);
    else if (open || !properties) out[k] = v;
  }
  return out;
}

// JSON arguments are not coerced (a number sent for a string is an error), as REST bodies.
const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validators = new WeakMap<TSchema, ValidateFunction>();
function validatorOf(schema: TSchema): ValidateFunction {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = ajv.compile(schema)));
  return v;
}

/** Ajv errors as `path: message`, worded as the REST layer's validation details. */
function describeErrors(errors: ErrorObject[]): string {
  const seen = new Set<string>();
  for (const e of errors) {
    let path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      path = [path, String(e.params.missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    seen.add(path ? `${path}: ${message}` : message);
  }
  return [...seen].join('; ');
}

interface Entry {
  tool: Tool;
  schema: TObject;
  run: (args: never) => Promise<CallToolResult>;
}

/**
 * Serves the tools the groups register on `server`: tools/list publishes each input schema as
 * JSON Schema, tools/call checks the arguments (defaults filled in) before the tool runs. A bad
 * argument or an unknown tool is an `isError` result, as the SDK's McpServer answers them.
 */
export function serveTools(server: Server, groups: ToolGroup[], deps: ToolDeps, note: string): void {
  const tools = new Map<string, Entry>();
  const registry: ToolRegistry = {
    registerTool(name, { title, description, inputSchema, annotations }, run) {
      const published = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...inputSchema,
      } as unknown as Tool['inputSchema'];
      const tool: Tool = {
        name,
        title,
        description: [description, note].filter(Boolean).join(' '),
        inputSchema: published,
        annotations,
        execution: { taskSupport: 'forbidden' },
      };
      tools.set(name, { tool, schema: inputSchema, run: run as Entry['run'] });
    },
  };
  for (const group of groups) group(registry, deps);
  server.registerCapabilities({ tools: { listChanged: true } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const entry = tools.get(params.name);
    if (!entry) return failure(new McpError(ErrorCode.InvalidParams, `Tool ${params.name} not found`).message);
    // An OAuth token acts within its scopes only (an API key carries none: it may do all).
    const needed = scopeOfTool(entry.tool.annotations?.readOnlyHint);
    if (deps.caller?.scopes && !deps.caller.scopes.includes(needed))
      return failure(
        `Insufficient scope: ${params.name} needs the ${needed} scope, and this sign-in granted ${deps.caller.scopes.join(' ') || 'none'}. Sign in again asking for ${needed}.`,
      );
    const args = prepared(entry.schema, params.arguments ?? {});
    const validate = validatorOf(entry.schema);
    if (!validate(args)) {
      const why = describeErrors(validate.errors ?? []);
      const text = `Input validation error: Invalid arguments for tool ${params.name}: ${why}`;
      return failure(new McpError(ErrorCode.InvalidParams, text).message);
    }
    return entry.run(args as never);
  });
}

// ---- argument pieces (names and bounds as the REST parameters) ----

export const Country = Defaulted(
  StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO', description: 'Registry: NO (default), FI, SE or DK' }),
);
export const OrgNumber = Trimmed(
  Described(LookupParams.properties.orgNumber, 'Organisation number: NO 9 digits, FI NNNNNNN-N, SE 10 digits'),
);
export const NorwegianOrgNumber = Trimmed(RestNorwegianOrgNumber);
/** Where ownership data is open: Norway (Aksjonærregisteret) and Denmark (CVR's owner register). */
export const OwnershipOrgNumber = Trimmed(OwnershipOrgNumberParams.properties.orgNumber);
export const Limit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 100,
    description: 'Page size 1–100 (default 20); capped by your tier’s maxPageSize',
  }),
);
export const Cursor = Type.Optional(
  Type.String({ minLength: 1, maxLength: 2048, description: 'nextCursor of the previous page of the same query' }),
);
export const Order = Type.Optional(StringEnum(['asc', 'desc'] as const));
export const Year = Described(Type.Optional(RegisterYear), 'Register year (omit for every year)');

// ---- results ----

// $id schemas that response shapes refer to (Type.Ref('CompanyRow') …).
const REFS = Object.fromEntries(COMPANY_SCHEMAS.map((s) => [(s as unknown as { $id: string }).$id, s]));

/**
 * The result as JSON text plus structured content, holding only the fields the REST response
 * schema declares: a tool never shows more than the endpoint it mirrors.
 */
export function success(schema: TSchema, result: unknown): CallToolResult {
  const shaped = Value.Clean(REFS, schema, Value.Clone(result)) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(shaped) }], structuredContent: shaped };
}

export function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

// REST detail paths (query.q, params.orgNumber, body.orgNumbers.3) named as tool arguments.
const ARGUMENT_NAMES: Record<string, string> = { q: 'query' };
function argumentPath(path: string): string {
  const bare = path.replace(/^(query|params|body)\.?/, '');
  if (!bare) return 'arguments';
  const [head, ...rest] = bare.split('.');
  return [ARGUMENT_NAMES[head] ?? head, ...rest].join('.');
}

/**
 * Runs a tool body. Client-side failures (validation, not found, tier refusals, quota) become
 * an error result with the catalogue message and details; anything else is logged and reported
 * as a plain internal error, never with its message or stack.
 */
export async function runTool(
  log: ToolLog,
  tool: string,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) {
      const details = (err.opts.details ?? []).map((d) => `${argumentPath(d.path)}: ${d.message}`);
      return failure(
        details.length ? `${err.message} (${err.code}): ${details.join('; ')}` : `${err.message} (${err.code})`,
      );
    }
    if (err instanceof ApiError) {
      // Server-side codes carry only their catalogue text (an upstream outage, a failed query).
      if (err.status !== 502) log.error({ err, tool }, 'mcp tool failed');
      return failure(`${ERROR_CATALOGUE[err.code].message} (${err.code})`);
    }
    log.error({ err, tool }, 'mcp tool failed');
    return failure('Internal server error (internal_error); retry later');
  }
}
