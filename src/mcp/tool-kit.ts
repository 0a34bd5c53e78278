// What every MCP tool shares: the caller it acts for, the argument pieces that mirror the REST
// parameters, and one wrapper that turns a service result into a tool result (cut to the REST
// response schema) and any failure into an `isError` result with a clear, safe message.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import * as z from 'zod';
import { ApiError, ERROR_CATALOGUE } from '../errors.ts';
import type { ReferenceData } from '../domain/reference-data.ts';
import { COMPANY_SCHEMAS } from '../contract/company.ts';
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

export type ToolGroup = (server: McpServer, deps: ToolDeps) => void;

// ---- argument pieces (names and bounds as the REST parameters) ----

export const Country = z.enum(['NO', 'FI', 'SE', 'DK']).default('NO').describe('Registry: NO (default), FI, SE or DK');
export const OrgNumber = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .describe('Organisation number: NO 9 digits, FI NNNNNNN-N, SE 10 digits');
export const NorwegianOrgNumber = z
  .string()
  .trim()
  .regex(/^[0-9]{9}$/, 'must be 9 digits')
  .describe('9-digit Norwegian organisation number');
/** Where ownership data is open: Norway (Aksjonærregisteret) and Denmark (CVR's owner register). */
export const OwnershipOrgNumber = z
  .string()
  .trim()
  .regex(/^[0-9]{8,9}$/, 'must be 9 digits (NO) or 8 digits (DK)')
  .describe('NO: 9-digit organisation number; DK: 8-digit CVR number');
export const Limit = z
  .number()
  .int()
  .min(1)
  .max(100)
  .optional()
  .describe('Page size 1–100 (default 20); capped by your tier’s maxPageSize');
export const Cursor = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .describe('nextCursor of the previous page of the same query');
export const Order = z.enum(['asc', 'desc']).optional();
export const Year = z.number().int().min(2000).max(2100).optional().describe('Register year (omit for every year)');

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
