// API key format: "ncd_" + 32 base62 characters of randomness (190 bits) + a 6-character
// CRC-32 checksum, so a mistyped key is refused without a database lookup.
import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'ncd_';
const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}$`);

/**
 * Text that looks like one of our keys (the prefix and 20+ base62 characters; a full key has 38),
 * checksum or not, or like one of the OAuth tokens and codes of domain/oauth.ts (`ncd_at_…`,
 * `ncd_rt_…`, `ncd_ac_…`): what redaction and input checks look for, since a mistyped or
 * truncated key is still a secret.
 */
export const keyShaped = (flags = '') => new RegExp(`${KEY_PREFIX}(?:at_|rt_|ac_)?[0-9A-Za-z]{20,}`, flags);

function base62(value: bigint, length: number): string {
  let out = '';
  let v = value;
  while (out.length < length) {
    out = ALPHABET[Number(v % 62n)] + out;
    v /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECK_LENGTH);
}

export function generateRawKey(): string {
  const body = base62(BigInt('0x' + randomBytes(24).toString('hex')), BODY_LENGTH);
  return KEY_PREFIX + body + checksum(body);
}

/** True when the string has the key format and a matching checksum. */
export function isWellFormedKey(raw: string): boolean {
  if (!KEY_PATTERN.test(raw)) return false;
  const body = raw.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return raw.slice(KEY_PREFIX.length + BODY_LENGTH) === checksum(body);
}

/** The public, non-secret part shown to users and operators ("ncd_" + 8 characters). */
export function keyPrefixOf(raw: string): string {
  return raw.slice(0, KEY_PREFIX.length + 8);
}

/** The stored form of a key: HMAC-SHA256 with a pepper derived from SECRET_KEY. */
export function hashApiKey(pepper: Buffer, raw: string): string {
  return createHmac('sha256', pepper).update(raw).digest('hex');
}
