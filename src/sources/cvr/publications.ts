// Filed annual reports from CVR's `offentliggoerelser` index: each publication names the company
// (`cvrNummer`), the accounting period and its documents; the XBRL instance is the document with
// `dokumentMimeType` application/xml (dokumentType AARSRAPPORT). The XBRL is fetched from its
// `dokumentUrl` with a deadline and a size cap.
import { request } from 'undici';
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

/** Downloads one XBRL document as text; throws CvrError naming the URL's path only. */
export async function fetchXbrl(url: string, timeoutMs = 60_000): Promise<string> {
  const path = new URL(url).pathname;
  let res;
  try {
    res = await request(url, { headers: { 'user-agent': SYNC_USER_AGENT }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new CvrError('network', `XBRL ${path}: ${(err as Error).message}`);
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await res.body.dump().catch(() => undefined);
    throw new CvrError('status', `XBRL ${path} answered ${res.statusCode}`, res.statusCode);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res.body) {
    size += (c as Buffer).length;
    if (size > MAX_XBRL_BYTES) {
      res.body.destroy();
      throw new CvrError('malformed', `XBRL ${path}: larger than ${MAX_XBRL_BYTES} bytes`);
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
