// `ncd sync inspections [--file PATH | --url URL]`: Mattilsynet's smilefjes `tilsyn` CSV, by
// default downloaded from INSPECTIONS_URL (the real file). The file is the whole register: rows
// are upserted on tilsynid with a content hash (unchanged rows are not written), and stored
// inspections the file no longer holds are removed — unless the file holds under half of the
// stored set, which looks like a truncated download rather than the truth.
import type { ReferenceData } from '../domain/reference-data.ts';
import { inspectionOfficeForMunicipality } from '../domain/mattilsynet-offices.ts';
import { inBatches } from '../sources/json-array.ts';
import { parseInspectionsCsv, type InspectionParseStats, type InspectionRecord } from '../sources/mattilsynet/parse.ts';
import { openSyncInput } from '../sources/sync-input.ts';
import type { InspectionWrite } from '../store/inspections.ts';
import { loadFullSet } from './full-set.ts';
import { defineJob, pick } from './job.ts';

const BATCH = 2000;

/** The stored row: municipality from the postal code, the Mattilsynet region from that. */
export function inspectionWrite(reference: ReferenceData, r: InspectionRecord): InspectionWrite {
  const municipalityNo = reference.postalPlace(r.postnr)?.municipalityCode ?? null;
  return {
    upstreamId: r.upstreamId,
    venueId: r.venueId,
    orgNumber: r.orgNumber,
    name: r.name,
    address: r.address,
    postnr: r.postnr,
    poststed: r.poststed,
    municipalityNo,
    office: municipalityNo ? inspectionOfficeForMunicipality(municipalityNo) : null,
    caseRef: r.caseRef,
    status: r.status,
    date: r.date,
    totalRating: r.totalRating,
    inspectionType: r.inspectionType,
    themes: r.themes,
  };
}

export const inspectionsJob = defineJob({
  name: 'inspections',
  description:
    'Mattilsynet smilefjes inspections (tilsyn CSV; INSPECTIONS_URL, --url or --file): replaces the stored set',
  schedule: '0 5 * * 1', // weekly, Monday 05:00 UTC
  options: ['file', 'url'],
  deps: (p) => ({
    ...pick(p.repos, 'inspections', 'syncSeen'),
    reference: p.reference,
    inspectionsUrl: p.config.inspectionsUrl,
  }),
  async run(deps, opts, job) {
    const repo = deps.inspections;
    const { stream: input } = await openSyncInput(opts, {
      fallback: deps.inspectionsUrl,
      missing: 'No inspections source',
    });
    const stats: InspectionParseStats = { records: 0, duplicatesDropped: 0 };
    const { inserted, changed, removed, absentKept } = await loadFullSet(deps.syncSeen, job, {
      name: 'inspections',
      noun: 'inspections',
      input,
      batches: inBatches(parseInspectionsCsv(input, stats), BATCH),
      store: repo,
      write: async (batch, firstLoad) => ({
        ...(await repo.upsert(
          batch.map((rec) => inspectionWrite(deps.reference, rec)),
          { firstLoad },
        )),
        keys: batch.map((rec) => rec.upstreamId),
      }),
      read: () => stats.records,
    });
    const unchanged = stats.records - inserted - changed;
    job.progress(
      `inspections: ${stats.records} read (${stats.duplicatesDropped} duplicate rows dropped), ${inserted} new, ${changed} changed, ${unchanged} unchanged, ${removed} removed`,
    );
    return {
      recordsProcessed: stats.records,
      details: { inserted, changed, unchanged, removed, duplicatesDropped: stats.duplicatesDropped, absentKept },
    };
  },
});
