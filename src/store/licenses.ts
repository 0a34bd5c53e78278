// Alcohol and tobacco licences (TBR import format): full-file upsert on (license_number,
// register_type) with a content hash, removal of rows a full file no longer holds, and the
// keyset-paginated list behind GET /api/licenses (an index for every filter and sort, 0010).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { LicenseRow } from './company-reads.ts';
import { withoutStatementTimeout } from './engine/bulk-statement.ts';
import { EVENT_SOURCE, isoValue, type RecordChange } from '../domain/record-events.ts';
import { appendRecordEvents, storedRecords, type RecordValues } from './events/record-events.ts';
import { hashedUpsert, type Column, type UpsertResult } from './engine/hashed-upsert.ts';
import { keysetPage, type KeysetPosition, type SortOrder, type SortSpec } from './engine/keyset.ts';
import type { Database } from './engine/schema.ts';
import type { LicenseFilters as ContractFilters, LICENSE_SORTS } from '../contract/licenses.ts';

export type { KeysetPosition, SortOrder };

export type { LicenseRow } from './company-reads.ts';
export type LicenseSort = (typeof LICENSE_SORTS)[number];

export interface LicenseWrite {
  licenseNumber: string;
  registerType: string;
  orgNumber: string | null;
  holderName: string | null;
  venueName: string | null;
  venueOrgNumber: string | null;
  licenseTypeCode: string;
  licenseTypeDescription: string | null;
  productGroups: string[];
  address: string | null;
  postnr: string | null;
  poststed: string | null;
  municipality: string | null;
  municipalityNo: string | null;
  issuingAuthority: string | null;
  validFrom: string | null; // ISO timestamp
  validTo: string | null;
}

/** The filters of GET /api/licenses, with activeOnly as the instant the licences must be valid after. */
export type LicenseFilters = Omit<ContractFilters, 'activeOnly'> & {
  /** Keeps only licences valid after this instant (null validTo = open-ended = active). */
  activeAt?: Date;
};

/** The sync_seen key of a licence: its upsert key. */
export const licenseKey = (registerType: string, licenseNumber: string) => `${registerType}:${licenseNumber}`;

// Nullable sort columns are sorted through COALESCE (one index serves both directions and the
// keyset comparison stays a plain row comparison): a missing start sorts as the earliest, a
// missing end (open-ended) as the latest, a missing name as ''.
export const VALID_TO_EXPR = "COALESCE(l.valid_to, 'infinity'::timestamptz)";
const SORTS: Record<LicenseSort, SortSpec> = {
  validFrom: { expr: "COALESCE(l.valid_from, '-infinity'::timestamptz)", type: 'timestamptz' },
  validTo: { expr: VALID_TO_EXPR, type: 'timestamptz' },
  venueName: { expr: "lower(COALESCE(l.venue_name, ''))", type: 'text' },
  municipality: { expr: "COALESCE(l.municipality, '')", type: 'text' },
};

const COLUMNS: Column<LicenseWrite>[] = [
  ['license_number', 'text', (w) => w.licenseNumber],
  ['register_type', 'text', (w) => w.registerType],
  ['org_number', 'text', (w) => w.orgNumber],
  ['holder_name', 'text', (w) => w.holderName],
  ['venue_name', 'text', (w) => w.venueName],
  ['venue_org_number', 'text', (w) => w.venueOrgNumber],
  ['license_type_code', 'text', (w) => w.licenseTypeCode],
  ['license_type_description', 'text', (w) => w.licenseTypeDescription],
  ['product_groups', 'text[]', (w) => w.productGroups],
  ['address', 'text', (w) => w.address],
  ['postnr', 'text', (w) => w.postnr],
  ['poststed', 'text', (w) => w.poststed],
  ['municipality', 'text', (w) => w.municipality],
  ['municipality_no', 'text', (w) => w.municipalityNo],
  ['issuing_authority', 'text', (w) => w.issuingAuthority],
  ['valid_from', 'timestamptz', (w) => w.validFrom],
  ['valid_to', 'timestamptz', (w) => w.validTo],
];
const upsertRows = hashedUpsert<LicenseWrite>('licenses', COLUMNS, ['license_number', 'register_type']);

// What a `licence` event shows of a licence (named by its key in the paths).
const LICENCE_FIELDS = ['licenseTypeCode', 'venueName', 'productGroups', 'validFrom', 'validTo'] as const;
const LICENCE_KEY = "l.register_type || ':' || l.license_number";
const LICENCE_SELECT = `l.org_number AS "orgNumber", l.license_type_code AS "licenseTypeCode",
  l.venue_name AS "venueName", l.product_groups AS "productGroups", l.valid_from AS "validFrom", l.valid_to AS "validTo"`;

const licenceValues = (v: RecordValues) => ({ ...v, validFrom: isoValue(v.validFrom), validTo: isoValue(v.validTo) });

function licenceChange(key: string, before: RecordValues | null, after: RecordValues | null): RecordChange {
  return {
    country: 'NO',
    orgNumber: (after ?? before)!.orgNumber ?? '',
    category: 'licence',
    source: EVENT_SOURCE.licences,
    path: `licences.${key}`,
    fields: LICENCE_FIELDS,
    before: before && licenceValues(before),
    after: after && licenceValues(after),
    types: { added: 'licence_granted', changed: 'licence_changed', removed: 'licence_removed' },
  };
}

function conditions(f: LicenseFilters): RawBuilder<SqlBool>[] {
  const w: RawBuilder<SqlBool>[] = [];
  if (f.orgNumber !== undefined) w.push(sql`l.org_number = ${f.orgNumber}`);
  if (f.registerType !== undefined) w.push(sql`l.register_type = ${f.registerType}`);
  if (f.licenseTypeCode !== undefined) w.push(sql`l.license_type_code = ${f.licenseTypeCode}`);
  if (f.municipalityNo !== undefined) w.push(sql`l.municipality_no = ${f.municipalityNo}`);
  // Written on the validTo sort expression so the same index serves filter and sort.
  if (f.activeAt !== undefined) w.push(sql`${sql.raw(VALID_TO_EXPR)} > ${f.activeAt.toISOString()}::timestamptz`);
  return w;
}

export function createLicenseRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts new licences and rewrites changed ones; an unchanged row is not written. The
     * batch must not hold one key twice (Postgres refuses to update a row twice in a statement).
     * Each new or changed licence becomes a `licence` event in the same transaction, except the
     * new ones of a first load (`firstLoad`: the store held no licence when the run began).
     */
    async upsert(writes: LicenseWrite[], opts: { firstLoad?: boolean } = {}): Promise<UpsertResult> {
      if (!writes.length) return { inserted: 0, changed: 0 };
      return db.transaction().execute(async (trx) => {
        const keys = writes.map((w) => licenseKey(w.registerType, w.licenseNumber));
        const stored = await storedRecords(
          trx,
          'licenses l',
          LICENCE_KEY,
          LICENCE_SELECT,
          sql`l.license_number = ANY(${writes.map((w) => w.licenseNumber)}::text[]) AND ${sql.raw(LICENCE_KEY)} = ANY(${keys}::text[])`,
        );
        const result = await upsertRows(trx, writes);
        const changes = writes
          .map((w, i) => ({ key: keys[i], before: stored.get(keys[i]) ?? null, after: w as unknown as RecordValues }))
          .filter((c) => c.before || !opts.firstLoad)
          .map((c) => licenceChange(c.key, c.before, c.after));
        await appendRecordEvents(trx, changes);
        return result;
      });
    },

    async count(): Promise<number> {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM licenses`.execute(db);
      return r.rows[0].n;
    },

    /**
     * Deletes the licences a full file did not hold (their key is not in sync_seen); each becomes
     * a `licence_removed` event in the same transaction.
     */
    async removeAbsent(runId: number): Promise<number> {
      return withoutStatementTimeout(
        db,
        async (trx) => {
          const gone = await sql<RecordValues & { key: string }>`DELETE FROM licenses l
            WHERE NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.run_id = ${runId} AND s.key = ${sql.raw(LICENCE_KEY)})
            RETURNING ${sql.raw(LICENCE_KEY)} AS key, ${sql.raw(LICENCE_SELECT)}`.execute(trx);
          await appendRecordEvents(
            trx,
            gone.rows.map(({ key, ...before }) => licenceChange(key, before as RecordValues, null)),
          );
          return gone.rows.length;
        },
        { analyzeFirst: ['sync_seen', 'licenses'] },
      );
    },

    /** One page in (sort expression, id) order, after the given keyset position. */
    list(filters: LicenseFilters, sort: LicenseSort, order: SortOrder, limit: number, after?: KeysetPosition) {
      return keysetPage<LicenseRow>(db, {
        from: 'licenses l',
        alias: 'l',
        where: conditions(filters),
        sort: SORTS[sort],
        order,
        limit,
        after,
      });
    },
  };
}

export type LicenseRepository = ReturnType<typeof createLicenseRepository>;
