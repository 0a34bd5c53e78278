// HubSpot's v3 request signature (developers.hubspot.com/docs/apps/legacy-apps/authentication/
// validating-requests, "Validate the v3 request signature"): base64 of HMAC-SHA256, keyed with
// the app's client secret, over method + URI + body + timestamp, where the timestamp is the
// X-HubSpot-Request-Timestamp header (ms). Requests older than five minutes are refused.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const HUBSPOT_SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;

export function hubspotSignatureV3(
  secret: string,
  method: string,
  uri: string,
  body: string,
  timestamp: string,
): string {
  return createHmac('sha256', secret).update(`${method}${uri}${body}${timestamp}`, 'utf8').digest('base64');
}

/**
 * The URI as HubSpot signs it: the full URL with the percent-encodings HubSpot decodes before
 * signing (its list: %3A : %2F / %3F ? %40 @ %21 ! %24 $ %27 ' %28 ( %29 ) %2A * %2C , %3B ;).
 */
export function hubspotSignedUri(url: string): string {
  const decode: Record<string, string> = {
    '%3A': ':',
    '%2F': '/',
    '%3F': '?',
    '%40': '@',
    '%21': '!',
    '%24': '$',
    '%27': "'",
    '%28': '(',
    '%29': ')',
    '%2A': '*',
    '%2C': ',',
    '%3B': ';',
  };
  return url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => decode[m.toUpperCase()] ?? m);
}

export type SignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch';

export function checkHubspotSignature(o: {
  secret: string;
  method: string;
  uri: string;
  body: string;
  signature: string | undefined;
  timestamp: string | undefined;
  now: Date;
}): SignatureCheck {
  if (!o.signature || !o.timestamp || !/^\d{10,16}$/.test(o.timestamp)) return 'missing';
  const age = o.now.getTime() - Number(o.timestamp);
  if (age > HUBSPOT_SIGNATURE_MAX_AGE_MS || age < -HUBSPOT_SIGNATURE_MAX_AGE_MS) return 'stale';
  const expected = Buffer.from(hubspotSignatureV3(o.secret, o.method, hubspotSignedUri(o.uri), o.body, o.timestamp));
  const given = Buffer.from(o.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'ok' : 'mismatch';
}
