// Optional Standard Webhooks signing (https://www.standardwebhooks.com): beyond the SPEC,
// which sends unsigned bodies, and only when the destination has a signing secret.
//   webhook-id        unique per message
//   webhook-timestamp Unix seconds
//   webhook-signature "v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>"
// The HMAC is the spec's reference library (`standardwebhooks`), so receivers verifying with any
// of the spec's libraries agree with us by construction. A secret "whsec_<base64>" means the key
// is the decoded bytes (the library's default); any other secret is used as its ASCII bytes (the
// library's `raw` format), which isValidSigningSecret keeps to printable ASCII.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PRINTABLE = /^[\x21-\x7e]{16,256}$/;

export function isValidSigningSecret(secret: string): boolean {
  if (secret.startsWith(PREFIX)) {
    const b64 = secret.slice(PREFIX.length);
    if (!b64 || !BASE64.test(b64)) return false;
    const n = Buffer.from(b64, 'base64').length;
    return n >= 16 && n <= 128;
  }
  return PRINTABLE.test(secret);
}

function webhookFor(secret: string): Webhook {
  return secret.startsWith(PREFIX) ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
}

export function signPayload(secret: string, msgId: string, timestampSec: number, body: string): string {
  return webhookFor(secret).sign(msgId, new Date(timestampSec * 1000), body);
}

/** The three Standard Webhooks headers for one message. */
export function signatureHeaders(
  secret: string,
  body: string,
  now: Date,
  msgId = `msg_${randomUUID()}`,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, msgId, timestamp, body),
  };
}
