// Opaque pagination cursors: the keyset position plus a hash of the query that produced it,
// signed with a key derived from SECRET_KEY. A tampered cursor, or one presented with other
// filters, is refused.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

interface CursorPayload {
  /** Hash of the normalised query (filters, sort, order) the cursor continues. */
  q: string;
  /** Keyset position: the sort value and id of the last row served. */
  k: [string | number | null, number];
}

type CursorDecode = { ok: true; payload: CursorPayload } | { ok: false; reason: 'malformed' | 'signature' | 'query' };

const MAC_BYTES = 16;

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
}

/** Stable hash of a query: keys sorted, undefined dropped. */
export function queryHash(scope: string, query: Record<string, unknown>): string {
  const entries = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([scope, entries]))
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(key: Buffer, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export function decodeCursor(key: Buffer, token: string, expectedQuery: string): CursorDecode {
  // Strict alphabet: base64url decoding would silently skip stray characters.
  if (token.length > 2048 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: 'malformed' };
  const dot = token.indexOf('.');
  const body = token.slice(0, dot);
  let given: Buffer;
  try {
    given = Buffer.from(token.slice(dot + 1), 'base64url');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const expected = mac(key, body);
  // A non-canonical spelling (the last base64 character carries spare bits) is another token.
  if (given.toString('base64url') !== token.slice(dot + 1)) return { ok: false, reason: 'malformed' };
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const k = payload?.k;
  if (
    typeof payload?.q !== 'string' ||
    !Array.isArray(k) ||
    k.length !== 2 ||
    !Number.isSafeInteger(k[1]) ||
    (!['string', 'number'].includes(typeof k[0]) && k[0] !== null)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  if (payload.q !== expectedQuery) return { ok: false, reason: 'query' };
  return { ok: true, payload };
}
