// Attio's webhook signature (docs.attio.com/rest-api/guides/webhooks, "Authenticating"): the
// Attio-Signature header (duplicated as X-Attio-Signature) is the hex SHA-256 HMAC of the request
// body, read as UTF-8, keyed with the webhook's secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function attioSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function checkAttioSignature(secret: string, body: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(attioSignature(secret, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
