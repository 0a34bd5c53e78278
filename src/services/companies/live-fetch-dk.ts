// Live fetch of Danish companies from CVR's Elasticsearch for lookups and batch enrich, through
// the same guard as brreg (shared request budget per host, circuit breaker). One URI search per
// number (`q=Vrvirksomhed.cvrNummer:N`), at most `concurrency` in flight; a document that does not
// map is reported as an upstream error, never stored half.
import pLimit from 'p-limit';
import { reasonOfFailure, type UnavailableReason } from '../../domain/unavailable-reasons.ts';
import { mapVirksomhed, type CvrCompany } from '../../sources/cvr/index.ts';
import type { UpstreamClient } from '../../sources/upstream-http.ts';

interface DanishFetchOutcome {
  found: CvrCompany[];
  notFound: string[];
  unavailable: string[];
  reasons: Map<string, UnavailableReason>;
}

export async function fetchDanishCompanies(
  cvr: Pick<UpstreamClient, 'getJson'>,
  numbers: string[],
  concurrency = 10,
): Promise<DanishFetchOutcome> {
  const slot = pLimit(concurrency);
  const out: DanishFetchOutcome = { found: [], notFound: [], unavailable: [], reasons: new Map() };
  await Promise.all(
    numbers.map((n) =>
      slot(async () => {
        try {
          const r = await cvr.getJson(`/cvr-permanent/virksomhed/_search?q=Vrvirksomhed.cvrNummer:${n}`);
          const hits = (r.body as { hits?: { hits?: unknown[] } } | null)?.hits?.hits;
          const hit = Array.isArray(hits) ? hits.find((h) => mapVirksomhed(h).core.orgNumber === n) : undefined;
          if (hit) out.found.push(mapVirksomhed(hit));
          else out.notFound.push(n);
        } catch (err) {
          out.unavailable.push(n);
          out.reasons.set(n, reasonOfFailure((err as { kind?: string }).kind));
        }
      }),
    ),
  );
  return out;
}
