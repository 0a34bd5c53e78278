// The registry status of an evidence pack's company: fetched live from the registry at pack time
// where the country allows live fetches (NO: Enhetsregisteret; DK: CVR, when credentials are
// set), otherwise the store's copy with the time of its last sync, and the pack says which.
import type { CompanyCore } from '../../domain/company.ts';
import type { Country } from '../../domain/org-number.ts';
import { mapEnhet } from '../../sources/brreg/map.ts';
import type { BrregClient } from '../../sources/brreg/client.ts';
import type { UpstreamClient } from '../../sources/upstream-http.ts';
import { fetchDanishCompanies } from '../companies/live-fetch-dk.ts';

export interface RegistryStatus {
  name: string | null;
  status: string | null;
  isBankrupt: boolean;
  isBeingDissolved: boolean;
  isInForcedDissolution: boolean;
  isInDebtNegotiation: boolean;
  isDeleted: boolean;
  deletedDate: string | null;
}

export interface LiveStatus {
  live: boolean;
  url: string | null;
  retrievedAt: string;
  /** Why the store's copy stands in (no live fetch for the country, or the registry failed). */
  note: string | null;
  /** null: the registry answered but does not know the number (or it was removed). */
  data: RegistryStatus | null;
}

const statusOf = (c: Pick<CompanyCore, keyof RegistryStatus>): RegistryStatus => ({
  name: c.name,
  status: c.status,
  isBankrupt: c.isBankrupt,
  isBeingDissolved: c.isBeingDissolved,
  isInForcedDissolution: c.isInForcedDissolution,
  isInDebtNegotiation: c.isInDebtNegotiation === true,
  isDeleted: c.isDeleted,
  deletedDate: c.deletedDate,
});

export interface RegistryStatusDeps {
  brreg: Pick<BrregClient, 'getEnhet'>;
  brregBaseUrl: string;
  cvr: Pick<UpstreamClient, 'getJson'> | null;
  cvrBaseUrl: string;
  now: () => Date;
}

/** The live status, or undefined when this country (or this installation) has no live fetch. */
export function createRegistryStatus(deps: RegistryStatusDeps) {
  return async function live(
    country: Country,
    orgNumber: string,
  ): Promise<LiveStatus | { failed: string } | undefined> {
    if (country === 'NO') {
      const url = `${deps.brregBaseUrl}/enhetsregisteret/api/enheter/${orgNumber}`;
      try {
        const r = await deps.brreg.getEnhet(orgNumber);
        const retrievedAt = deps.now().toISOString();
        if (r.kind === 'found' || r.kind === 'deleted')
          return { live: true, url, retrievedAt, note: null, data: statusOf(mapEnhet(r.enhet)) };
        return {
          live: true,
          url,
          retrievedAt,
          note:
            r.kind === 'gone' ? 'The registry removed this unit (410)' : 'The registry does not know this number (404)',
          data: null,
        };
      } catch (e) {
        return { failed: `Enhetsregisteret did not answer (${(e as Error).message.slice(0, 120)})` };
      }
    }
    if (country === 'DK' && deps.cvr) {
      const url = `${deps.cvrBaseUrl}/cvr-permanent/virksomhed/_search?q=Vrvirksomhed.cvrNummer:${orgNumber}`;
      const r = await fetchDanishCompanies(deps.cvr, [orgNumber], 1);
      const retrievedAt = deps.now().toISOString();
      if (r.found[0]) return { live: true, url, retrievedAt, note: null, data: statusOf(r.found[0].core) };
      if (r.notFound.length) return { live: true, url, retrievedAt, note: 'CVR does not know this number', data: null };
      return { failed: `CVR did not answer (${r.reasons.get(orgNumber) ?? 'upstream_error'})` };
    }
    return undefined;
  };
}

export type RegistryStatusFetch = ReturnType<typeof createRegistryStatus>;

/** The store's copy of the status (countries without live fetch, or a failed live fetch). */
export function storedStatus(row: {
  name: string;
  status: string | null;
  is_bankrupt: boolean;
  is_being_dissolved?: boolean;
  is_in_forced_dissolution?: boolean;
  is_in_debt_negotiation?: boolean | null;
  is_deleted: boolean;
  deleted_date: string | null;
}): RegistryStatus {
  return {
    name: row.name,
    status: row.status,
    isBankrupt: row.is_bankrupt,
    isBeingDissolved: row.is_being_dissolved === true,
    isInForcedDissolution: row.is_in_forced_dissolution === true,
    isInDebtNegotiation: row.is_in_debt_negotiation === true,
    isDeleted: row.is_deleted,
    deletedDate: row.deleted_date,
  };
}
