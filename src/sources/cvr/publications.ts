// Filed annual reports from CVR's `offentliggoerelser` index: each publication names the company
// (`cvrNummer`), the accounting period and its documents; the XBRL instance is the document with
// `dokumentMimeType` application/xml (dokumentType AARSRAPPORT). The XBRL is fetched from its
// `dokumentUrl` through the SSRF-safe client, with a deadline and a size cap.
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../net/index.ts';
import { text } from '../nordic-record.ts';
import { SYNC_USER_AGENT } from '../sync-input.ts';
import { CvrError } from './client.ts';

export interface CvrPublication {
  id: string;
  cvr: string;
  xbrlUrl: string;
  publishedAt: string | null;
}

interface RawPublication {
  cvrNummer?: number | string;
  offentliggoerelsestype?: string;
  offentliggoerelsesTidspunkt?: string;
  dokumenter?: { dokumentUrl?: string; dokumentMimeType?: string; dokumentType?: string }[];
}

/** The annual report with an XBRL document in one hit, or null (other filings, PDF-only reports). */
export function publicationOf(hit: unknown): CvrPublication | null {
  const h = hit as { _id?: string; _source?: RawPublication } | null;
  const p = h?._source;
  if (!p || typeof p !== 'object') return null;
  if (p.offentliggoerelsestype !== undefined && p.offentliggoerelsestype !== 'regnskab') return null;
  const cvr = typeof p.cvrNummer === 'number' ? String(p.cvrNummer).padStart(8, '0') : text(p.cvrNummer);
  const doc = (Array.isArray(p.dokumenter) ? p.dokumenter : []).find(
    (d) => d && /xml/i.test(d.dokumentMimeType ?? '') && (d.dokumentType ?? 'AARSRAPPORT') === 'AARSRAPPORT',
  );
  const url = text(doc?.dokumentUrl);
  if (!cvr || !/^\d{8}$/.test(cvr) || !url || !/^https?:\/\//.test(url)) return null;
  return { id: String(h?._id ?? `${cvr}:${url}`), cvr, xbrlUrl: url, publishedAt: text(p.offentliggoerelsesTidspunkt) };
}

const MAX_XBRL_BYTES = 50 * 1024 * 1024;

/** How the XBRL fetch reaches the network: the job's resolver and test seams. */
export type XbrlNet = Pick<SafeFetchOptions, 'resolver' | 'allowedAddresses' | 'dial'>;

/**
 * Downloads one XBRL document as text; throws CvrError naming the URL's path only. The URL comes
 * from CVR's data, so it goes through the SSRF-safe client: every hop's address is checked
 * (no loopback, private, link-local or metadata address), at most three redirects, a deadline
 * and a size cap.
 */
export async function fetchXbrl(url: string, net: XbrlNet = {}, timeoutMs = 60_000): Promise<string> {
  const path = new URL(url).pathname;
  let res;
  try {
    res = await safeFetch(url, {
      ...net,
      // Any port: the address policy is what keeps the fetch off internal services.
      allowedPorts: 'any',
      headers: { 'user-agent': SYNC_USER_AGENT },
      maxRedirects: 3,
      timeoutMs,
      maxBodyBytes: MAX_XBRL_BYTES,
    });
  } catch (err) {
    if (err instanceof SafeFetchError && err.kind === 'blocked')
      throw new CvrError('network', `XBRL ${path}: address refused (${err.message})`);
    throw new CvrError('network', `XBRL ${path}: ${(err as Error).message}`);
  }
  if (res.status < 200 || res.status >= 300)
    throw new CvrError('status', `XBRL ${path} answered ${res.status}`, res.status);
  if (res.truncated) throw new CvrError('malformed', `XBRL ${path}: larger than ${MAX_XBRL_BYTES} bytes`);
  return Buffer.from(res.body).toString('utf8');
}
