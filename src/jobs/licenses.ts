// `ncd sync licenses --file PATH | --url URL`: alcohol and tobacco licences in our import format
// (docs/licenses-import-format.md; CSV or JSON, detected). Helsedirektoratet publishes no
// download, so there is no default: --file, --url or LICENSES_URL. The file is the whole set:
// rows are upserted on (licenseNumber, registerType) with a content hash, and stored licences
// the file no longer holds are removed — unless it holds under half of them (a truncated file).
import type { ReferenceData } from '../domain/reference-data.ts';
import { inBatches } from '../sources/json-array.ts';
import { parseLicenses, type LicenseRecord } from '../sources/tbr/parse.ts';
import { openSyncInput } from '../sources/sync-input.ts';
import { licenseKey, type LicenseWrite } from '../store/licenses.ts';
import { loadFullSet } from './full-set.ts';
import { defineJob, pick } from './job.ts';

const BATCH = 2000;

export const NO_LICENSE_SOURCE =
  'No licence source: Helsedirektoratet publishes no download, so give --file PATH or --url URL ' +
  '(or set LICENSES_URL) with a file in the format of docs/licenses-import-format.md';

/** The stored row: a missing municipality number comes from the postal code, a missing name from the number. */
export function licenseWrite(reference: ReferenceData, r: LicenseRecord): LicenseWrite {
  const municipalityNo = r.municipalityNo ?? reference.postalPlace(r.postnr)?.municipalityCode ?? null;
  return {
    licenseNumber: r.licenseNumber,
    registerType: r.registerType,
    orgNumber: r.orgNumber,
    holderName: r.holderName,
    venueName: r.venueName,
    venueOrgNumber: r.venueOrgNumber,
    licenseTypeCode: r.licenseTypeCode,
    licenseTypeDescription: r.licenseTypeDescription,
    productGroups: r.productGroups,
    address: r.address,
    postnr: r.postnr,
    poststed: r.poststed,
    municipality: r.municipality ?? reference.municipality(municipalityNo)?.name ?? null,
    municipalityNo,
    issuingAuthority: r.issuingAuthority,
    validFrom: r.validFrom,
    validTo: r.validTo,
  };
}

export const licensesJob = defineJob({
  name: 'licenses',
  description:
    'Alcohol and tobacco licences (TBR import format, CSV or JSON; --file, --url or LICENSES_URL): replaces the stored set',
  schedule: '0 7 * * 1', // weekly, Monday 07:00 UTC
  options: ['file', 'url'],
  deps: (p) => ({
    ...pick(p.repos, 'licenses', 'syncSeen'),
    reference: p.reference,
    licensesUrl: p.config.licensesUrl,
  }),
  scheduled: async (deps) => deps.licensesUrl !== undefined,
  async run(deps, opts, job) {
    const repo = deps.licenses;
    const { stream: input } = await openSyncInput(opts, {
      fallback: deps.licensesUrl,
      missing: NO_LICENSE_SOURCE,
    });
    let records = 0;
    const { inserted, changed, removed, absentKept } = await loadFullSet(deps.syncSeen, job, {
      name: 'licenses',
      noun: 'licences',
      input,
      batches: inBatches(parseLicenses(input, 'auto'), BATCH),
      store: repo,
      write: async (batch, firstLoad) => {
        // One key twice in a batch cannot be upserted in one statement: the later record wins,
        // as it would when loaded one after the other.
        const byKey = new Map<string, LicenseWrite>();
        for (const rec of batch)
          byKey.set(licenseKey(rec.registerType, rec.licenseNumber), licenseWrite(deps.reference, rec));
        const r = await repo.upsert([...byKey.values()], { firstLoad });
        records += batch.length;
        return { ...r, keys: [...byKey.keys()] };
      },
      read: () => records,
    });
    job.progress(`licenses: ${records} read, ${inserted} new, ${changed} changed, ${removed} removed`);
    return { recordsProcessed: records, details: { inserted, changed, removed, absentKept } };
  },
});
