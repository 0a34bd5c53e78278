// Enhetsregisteret and Regnskapsregisteret over HTTP (BRREG_BASE_URL).
import type { Readable } from 'node:stream';
import { createUpstreamClient, UpstreamError, type UpstreamClient } from '../upstream-http.ts';
import type { BrregEnhet, BrregRegnskap, BrregRoller, BrregUnderenhet, BrregUpdate } from './types.ts';

const ENHET_JSON = 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8';
const UNDERENHET_JSON = 'application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8';

export type EnhetLookup =
  | { kind: 'found'; enhet: BrregEnhet }
  /** Deleted (slettet): brreg answers 200 with a reduced record carrying `slettedato`. */
  | { kind: 'deleted'; enhet: BrregEnhet }
  | { kind: 'not-found' }
  /** 410: removed from open data for legal reasons; every copy must be purged. */
  | { kind: 'gone' };

interface Page<T> {
  _embedded?: Record<string, T[]>;
  page?: { totalPages?: number; number?: number; totalElements?: number };
}

/** The largest page brreg's search serves (page × size ≤ 10 000). */
const SEARCH_PAGE = 1000;

export function createBrregClient(opts: { baseUrl: string; timeoutMs?: number; http?: UpstreamClient }) {
  const http = opts.http ?? createUpstreamClient({ baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs ?? 10_000 });
  const api = 'enhetsregisteret/api';

  async function lookup<T extends BrregEnhet>(
    kind: 'enheter' | 'underenheter',
    orgnr: string,
  ): Promise<EnhetLookup & { enhet?: T }> {
    const res = await http.getJson(`${api}/${kind}/${orgnr}`, {
      accept: kind === 'enheter' ? ENHET_JSON : UNDERENHET_JSON,
      pass: [404, 410],
    });
    if (res.status === 404) return { kind: 'not-found' };
    if (res.status === 410) return { kind: 'gone' };
    const body = res.body as T | null;
    if (!body || typeof body.organisasjonsnummer !== 'string')
      throw new UpstreamError('malformed', `${kind}/${orgnr}: no organisasjonsnummer in the response`);
    return body.slettedato ? { kind: 'deleted', enhet: body } : { kind: 'found', enhet: body };
  }

  async function searchAll<T>(path: string, key: string, params: URLSearchParams, maxPages: number): Promise<T[]> {
    const out: T[] = [];
    for (let page = 0; page < maxPages; page++) {
      params.set('page', String(page));
      const res = await http.getJson(`${path}?${params}`);
      const body = res.body as Page<T> | null;
      out.push(...(body?._embedded?.[key] ?? [])); // an empty result has no _embedded
      const total = body?.page?.totalPages ?? 1;
      if (page + 1 >= total) break;
    }
    return out;
  }

  return {
    getEnhet: (orgnr: string) => lookup<BrregEnhet>('enheter', orgnr),
    getUnderenhet: (orgnr: string) => lookup<BrregUnderenhet>('underenheter', orgnr),

    /** Core records of many units in as few requests as brreg allows (a list filter). */
    async searchEnheter(orgnrs: string[]): Promise<BrregEnhet[]> {
      const out: BrregEnhet[] = [];
      for (let i = 0; i < orgnrs.length; i += SEARCH_PAGE) {
        const chunk = orgnrs.slice(i, i + SEARCH_PAGE);
        const params = new URLSearchParams({ organisasjonsnummer: chunk.join(','), size: String(chunk.length) });
        out.push(...(await searchAll<BrregEnhet>(`${api}/enheter`, 'enheter', params, 1)));
      }
      return out;
    },

    async subUnitsOf(parentOrgnr: string): Promise<BrregUnderenhet[]> {
      const params = new URLSearchParams({ overordnetEnhet: parentOrgnr, size: String(SEARCH_PAGE) });
      return searchAll<BrregUnderenhet>(`${api}/underenheter`, 'underenheter', params, 10);
    },

    /** Active and past roles; a unit with no roles answers 404, which means none. */
    async getRoller(orgnr: string): Promise<BrregRoller> {
      const res = await http.getJson(`${api}/enheter/${orgnr}/roller`, { pass: [404] });
      return res.status === 404 || !res.body ? { rollegrupper: [] } : (res.body as BrregRoller);
    },

    /** Annual accounts (key figures); none on file answers 404 or [], both meaning none. */
    async getRegnskap(orgnr: string): Promise<BrregRegnskap[]> {
      const res = await http.getJson(`regnskapsregisteret/regnskap/${orgnr}`, { pass: [404] });
      return res.status === 404 || !Array.isArray(res.body) ? [] : (res.body as BrregRegnskap[]);
    },

    /** One page of the update feed from `fromId` (inclusive), ascending. */
    async updates(kind: 'enheter' | 'underenheter', fromId: number, size: number): Promise<BrregUpdate[]> {
      const key = kind === 'enheter' ? 'oppdaterteEnheter' : 'oppdaterteUnderenheter';
      const params = new URLSearchParams({
        oppdateringsid: String(fromId),
        size: String(size),
        sort: 'id,ASC',
        page: '0',
      });
      const res = await http.getJson(`${api}/oppdateringer/${kind}?${params}`);
      return ((res.body as Page<BrregUpdate> | null)?._embedded?.[key] ?? []) as BrregUpdate[];
    },

    /** First update id at or after a timestamp (to start following from a dump's time). */
    async firstUpdateIdSince(kind: 'enheter' | 'underenheter', since: Date): Promise<number | null> {
      const key = kind === 'enheter' ? 'oppdaterteEnheter' : 'oppdaterteUnderenheter';
      const params = new URLSearchParams({ dato: since.toISOString(), size: '1', sort: 'id,ASC', page: '0' });
      const res = await http.getJson(`${api}/oppdateringer/${kind}?${params}`);
      const first = ((res.body as Page<BrregUpdate> | null)?._embedded?.[key] ?? [])[0];
      return first ? first.oppdateringsid : null;
    },

    /** The gzipped JSON dump of all units (streamed; ~190 MB). */
    download(kind: 'enheter' | 'underenheter'): Promise<Readable> {
      return http.getStream(
        `${api}/${kind}/lastned`,
        'application/vnd.brreg.enhetsregisteret.enhet.v2+gzip;charset=UTF-8, */*',
      );
    },

    /** All roles of all units (gzipped JSON array), streamed. */
    downloadRoles(): Promise<Readable> {
      return http.getStream(`${api}/roller/totalbestand`, 'application/json, */*');
    },

    close: () => http.close(),
  };
}

export type BrregClient = ReturnType<typeof createBrregClient>;
