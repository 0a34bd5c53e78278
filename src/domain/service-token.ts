// Per-key service tokens for clients that cannot send an Authorization header (OpenRefine's
// reconciliation service URL): "rcn_" + the key prefix's 8 public characters + an HMAC of the
// key (its id and prefix) under a SECRET_KEY-derived key. Unforgeable without SECRET_KEY,
// verified with one key lookup by prefix, and void when the key is rotated or deactivated.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { KEY_PREFIX } from './api-key.ts';

const SERVICE_TOKEN_PREFIX = 'rcn_';
const PREFIX_BODY = 8;
const MAC_LENGTH = 32;
const TOKEN = new RegExp(`^${SERVICE_TOKEN_PREFIX}([0-9A-Za-z]{${PREFIX_BODY}})([0-9a-f]{${MAC_LENGTH}})$`);

/** Text that looks like a service token (for log redaction), full or cut short. */
export const serviceTokenShaped = (flags = '') => new RegExp(`${SERVICE_TOKEN_PREFIX}[0-9A-Za-z]{16,}`, flags);

const macOf = (key: Buffer, keyId: number, keyPrefix: string) =>
  createHmac('sha256', key).update(`service-token\u0000${keyId}\u0000${keyPrefix}`).digest('hex').slice(0, MAC_LENGTH);

export function makeServiceToken(key: Buffer, keyId: number, keyPrefix: string): string {
  return SERVICE_TOKEN_PREFIX + keyPrefix.slice(KEY_PREFIX.length) + macOf(key, keyId, keyPrefix);
}

/** The key prefix a well-formed token names, or undefined. */
export function serviceTokenKeyPrefix(token: string): string | undefined {
  const m = TOKEN.exec(token);
  return m ? KEY_PREFIX + m[1] : undefined;
}

/** True when `token` is the token of this key. */
export function verifyServiceToken(key: Buffer, token: string, keyId: number, keyPrefix: string): boolean {
  const m = TOKEN.exec(token);
  if (!m) return false;
  const expected = Buffer.from(macOf(key, keyId, keyPrefix));
  const given = Buffer.from(m[2]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
