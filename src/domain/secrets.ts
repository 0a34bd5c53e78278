// Purpose-bound keys derived from SECRET_KEY (HKDF), so one secret can pepper key hashes,
// sign cursors and encrypt destination configs without reusing the same key material.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

type KeyPurpose =
  | 'api-key-hash'
  | 'cursor'
  | 'destination-config'
  | 'operator'
  | 'oauth-token-hash'
  | 'service-token'
  | 'crm-oauth-state';

export function deriveKey(secretKey: string, purpose: KeyPurpose, version = 1): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'nordic-company-data', `${purpose}:v${version}`, 32));
}

export function hmacHex(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** Constant-time string comparison that does not leak the length through early exit. */
export function safeEqual(a: string, b: string): boolean {
  const ka = createHmac('sha256', 'compare').update(a).digest();
  const kb = createHmac('sha256', 'compare').update(b).digest();
  return timingSafeEqual(ka, kb) && a === b;
}
