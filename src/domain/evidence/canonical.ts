// The bytes an evidence pack's hash and signature cover: the JSON Canonicalization Scheme
// (RFC 8785, JCS) of the pack without its `hash` and `signature`, as UTF-8. JCS fixes key order
// (UTF-16 code units), number form (ECMAScript's) and string escapes, so any verifier in any
// language that implements RFC 8785 gets the same bytes.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** RFC 8785 text of a JSON value; throws on what JSON cannot hold (undefined, NaN, Infinity). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('not a JSON value');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The part of a pack the hash and signature cover: every field but those two. */
export function signedPart<T extends Record<string, unknown>>(pack: T): Omit<T, 'hash' | 'signature'> {
  const { hash: _h, signature: _s, ...rest } = pack;
  return rest;
}
