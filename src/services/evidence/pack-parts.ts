// The parts of an evidence pack, each as { source, url, retrievedAt, data, note? }: the company
// record as served (with _sources), its roles, shareholders, ultimate-owner candidates, group
// tree, screening of the company and every subject, and the registry status. Read through one
// snapshot (EvidenceView), so every part describes the same state of the store.
import { SOURCE } from '../../domain/company.ts';
import type { Country } from '../../domain/org-number.ts';
import type { LatestRun } from '../../store/ops/sync-runs.ts';
import type { StoredCompany } from '../../store/company-reads.ts';
import type { CompanyRecord } from '../companies/company-record.ts';
import type { AuditCaller } from '../screening/screening-audit.ts';
import { storedStatus, type LiveStatus } from './registry-status.ts';

export interface Part {
  source: string;
  url: string | null;
  retrievedAt: string | null;
  data: unknown;
  note?: string;
}

/** What a pack reads, all inside one transaction (runtime/evidence-snapshot.ts). */
export interface EvidenceView {
  company(country: Country, orgNumber: string): Promise<{ stored: StoredCompany; record: CompanyRecord } | undefined>;
  shareholders(country: 'NO' | 'DK', orgNumber: string): Promise<unknown>;
  owners(country: 'NO' | 'DK', orgNumber: string): Promise<{ candidates: unknown[] } & Record<string, unknown>>;
  group(country: 'NO' | 'DK', orgNumber: string): Promise<unknown>;
  screen(
    country: Country,
    orgNumber: string,
    audit: AuditCaller,
  ): Promise<
    { lists: { name: string; version: string | null; lastSync: string }[]; matches: unknown[] } & Record<
      string,
      unknown
    >
  >;
  syncRuns(): Promise<Record<string, LatestRun>>;
}

export interface UpstreamUrls {
  brregBaseUrl: string;
  prhBaseUrl: string;
  bolagsverketBulkUrl: string;
  cvrBaseUrl: string;
  sanctionsUrl: string;
}

/** The sync jobs that write each country's company records. */
const CORE_JOBS: Record<Country, string[]> = {
  NO: ['brreg', 'brreg-updates', 'brreg-roles'],
  FI: ['prh', 'prh-updates'],
  SE: ['bolagsverket'],
  DK: ['cvr', 'cvr-updates'],
};
const CORE_SOURCE: Record<Country, string> = {
  NO: SOURCE.brreg,
  FI: SOURCE.ytj,
  SE: SOURCE.bolagsverket,
  DK: SOURCE.cvr,
};

const latest = (...times: (string | null | undefined)[]) =>
  times
    .filter((t): t is string => !!t)
    .sort()
    .at(-1) ?? null;

function coreUrl(country: Country, orgNumber: string, u: UpstreamUrls): string {
  if (country === 'NO') return `${u.brregBaseUrl}/enhetsregisteret/api/enheter/${orgNumber}`;
  if (country === 'FI') return `${u.prhBaseUrl}/companies?businessId=${orgNumber}`;
  if (country === 'SE') return u.bolagsverketBulkUrl;
  return `${u.cvrBaseUrl}/cvr-permanent/virksomhed/_search?q=Vrvirksomhed.cvrNummer:${orgNumber}`;
}

/** Every part but the registry status, from the snapshot. */
export async function readParts(
  view: EvidenceView,
  s: {
    country: Country;
    orgNumber: string;
    audit: AuditCaller;
    urls: UpstreamUrls;
    live: LiveStatus | { failed: string } | undefined;
  },
) {
  const { country, orgNumber, urls } = s;
  const found = await view.company(country, orgNumber);
  if (!found) return undefined;
  const runs = await view.syncRuns();
  const lastOk = (jobs: string[]) => latest(...jobs.map((j) => runs[j]?.lastSuccess));
  const row = found.stored.row;
  const fetchedAt = row.fetched_at ? new Date(row.fetched_at).toISOString() : null;
  const coreAt = latest(fetchedAt, lastOk(CORE_JOBS[country]));
  const coreSource = CORE_SOURCE[country];
  const registered = country === 'NO' || country === 'DK';

  const parts: Record<string, Part> = {
    company: { source: coreSource, url: coreUrl(country, orgNumber, urls), retrievedAt: coreAt, data: found.record },
    roles: {
      source: coreSource,
      url:
        country === 'NO'
          ? `${urls.brregBaseUrl}/enhetsregisteret/api/enheter/${orgNumber}/roller`
          : coreUrl(country, orgNumber, urls),
      retrievedAt: coreAt,
      data: found.record.roles,
      ...(found.record.roles.length ? {} : { note: 'The registry lists no roles for this company in the store' }),
    },
  };

  if (registered) {
    const holdersSource = country === 'NO' ? SOURCE.aksjonaer : SOURCE.cvr;
    const holdersAt = country === 'NO' ? lastOk(['shareholders']) : lastOk(CORE_JOBS.DK);
    const holdersUrl =
      country === 'NO' ? 'Aksjonærregisteret (Skatteetaten), aksjeeierbok file' : coreUrl(country, orgNumber, urls);
    parts.shareholders = {
      source: holdersSource,
      url: holdersUrl,
      retrievedAt: holdersAt,
      data: await view.shareholders(country, orgNumber),
    };
    parts.ultimateOwners = {
      source: holdersSource,
      url: holdersUrl,
      retrievedAt: holdersAt,
      data: await view.owners(country, orgNumber),
      note: 'Derived at pack time by walking the shareholder register; candidates, not the register of beneficial owners',
    };
    parts.group = {
      source: country === 'NO' ? `${SOURCE.brreg}, ${SOURCE.aksjonaer}` : SOURCE.cvr,
      url: coreUrl(country, orgNumber, urls),
      retrievedAt: latest(coreAt, country === 'NO' ? lastOk(['shareholders']) : null),
      data: await view.group(country, orgNumber),
      note: 'Derived at pack time from registry parent links and majority shareholders',
    };
  } else {
    const none = { source: coreSource, url: null, retrievedAt: null, data: null };
    const note = `No shareholder register is read for ${country}: nothing to show`;
    parts.shareholders = { ...none, note };
    parts.ultimateOwners = { ...none, note };
    parts.group = { ...none, note: `Group trees are derived for NO and DK only` };
  }

  const screening = await view.screen(country, orgNumber, s.audit);
  parts.screening = {
    source: screening.lists.map((l) => l.name).join(', ') || 'no list loaded',
    url: screening.lists.length ? urls.sanctionsUrl : null,
    retrievedAt: latest(...screening.lists.map((l) => l.lastSync)),
    data: screening,
    note: 'Each list with its version and the time of our last sync; matches are possible matches for a person to review',
  };

  const live = s.live;
  parts.registryStatus =
    live && !('failed' in live)
      ? {
          source: coreSource,
          url: live.url,
          retrievedAt: live.retrievedAt,
          data: live.data,
          note: live.note ?? 'Fetched live from the registry at pack time',
        }
      : {
          source: coreSource,
          url: coreUrl(country, orgNumber, urls),
          retrievedAt: coreAt,
          data: storedStatus(row),
          note: live
            ? `${live.failed}: the store's copy as of its last sync stands in`
            : `${country} allows no live fetch here: the store's copy as of its last sync`,
        };
  return { parts, name: row.name, live: !!live && !('failed' in live) };
}
