// Batched ingest of company records. Each part (core, roles, financials, sub-units) carries a
// content hash; a part is written, and updated_at bumped, only when its hash changes, so a
// re-sync of identical data changes nothing and the change feed carries real changes only.
// The core is written here, the other parts in company-parts.ts.
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import {
  normaliseCompanyName,
  type CompanyCore,
  type FinancialInput,
  type RoleInput,
  type SubUnitInput,
} from '../domain/company.ts';
import { PARENT_SOURCE } from '../domain/group-tree.ts';
import type { NewEvent } from '../domain/company-events.ts';
import { findTargets, upsertSubUnits, writeParts } from './company-parts.ts';
import type { Db } from './engine/db-type.ts';
import { addNameKeys } from './company-names.ts';
import {
  appendEvents,
  CREATE_CORE_EVENT_STAGE,
  knownSubUnits,
  purgeEvent,
  subUnitEvents,
} from './events/event-append.ts';
import { stageCoreEvents } from './events/core-events-sql.ts';
import { columnNames, contentHash, recordOf, setFromExcluded, type Column } from './engine/hashed-upsert.ts';
import { jsonRows, recordShape, rowSourceTransactions, type RowSource } from './engine/row-source.ts';
import type { Database } from './engine/schema.ts';
import { companyKey, type CompanyChangeSignal } from './company-changes.ts';
import { withoutStatementTimeout } from './engine/bulk-statement.ts';
import { PREPARED } from './engine/db.ts';

export interface CompanyWrite {
  core: CompanyCore;
  /** Omitted: roles not part of this ingest (left as stored). [] = the company has none. */
  roles?: RoleInput[];
  financials?: FinancialInput[];
  subUnits?: SubUnitInput[];
  /** Set when the record was fetched live from the registry just now. */
  fetched?: boolean;
}

interface WriteOptions {
  /**
   * The caller found no company of any country in the store when its load began (a first full
   * load): new rows are the rule, and reading stored hashes first is a wasted round trip.
   */
  storeWasEmpty?: boolean;
}

interface CompanyWriteOptions {
  /**
   * false: append no events and read no before-images (a bench-only seam: bench/events-updates.ts
   * measures what the event log costs a sync against this baseline). Default true.
   */
  eventLog?: boolean;
  /** The pg Pool of a PostgreSQL server: bulk batches are COPYed into staging (none on PGlite). */
  copyPool?: pg.Pool;
}

export interface WriteResult {
  inserted: number;
  changed: number;
  unchanged: number;
}

const CORE_COLUMNS: Column<CompanyCore>[] = [
  ['country', 'text', (c) => c.country],
  ['org_number', 'text', (c) => c.orgNumber],
  ['name', 'text', (c) => c.name],
  ['name_norm', 'text', (c) => normaliseCompanyName(c.name)],
  ['org_form_code', 'text', (c) => c.orgFormCode],
  ['org_form_description', 'text', (c) => c.orgFormDescription],
  ['nace_code1', 'text', (c) => c.naceCode1],
  ['nace_description1', 'text', (c) => c.naceDescription1],
  ['nace_code2', 'text', (c) => c.naceCode2],
  ['nace_description2', 'text', (c) => c.naceDescription2],
  ['nace_code3', 'text', (c) => c.naceCode3],
  ['nace_description3', 'text', (c) => c.naceDescription3],
  ['sector_code', 'text', (c) => c.sectorCode],
  ['employee_count', 'integer', (c) => c.employeeCount],
  ['employee_count_range', 'text', (c) => c.employeeCountRange ?? null],
  ['has_registered_employees', 'boolean', (c) => c.hasRegisteredEmployees],
  ['business_address_street', 'text', (c) => c.businessAddress?.street ?? null],
  ['business_address_postal_code', 'text', (c) => c.businessAddress?.postalCode ?? null],
  ['business_address_city', 'text', (c) => c.businessAddress?.city ?? null],
  ['business_address_municipality', 'text', (c) => c.businessAddress?.municipality ?? null],
  ['business_address_muni_no', 'text', (c) => c.businessAddress?.municipalityNumber ?? null],
  ['business_address_country_code', 'text', (c) => c.businessAddress?.countryCode ?? null],
  ['postal_address_street', 'text', (c) => c.postalAddress?.street ?? null],
  ['postal_address_postal_code', 'text', (c) => c.postalAddress?.postalCode ?? null],
  ['postal_address_city', 'text', (c) => c.postalAddress?.city ?? null],
  ['postal_address_municipality', 'text', (c) => c.postalAddress?.municipality ?? null],
  ['postal_address_muni_no', 'text', (c) => c.postalAddress?.municipalityNumber ?? null],
  ['postal_address_country_code', 'text', (c) => c.postalAddress?.countryCode ?? null],
  ['website', 'text', (c) => c.website],
  ['email', 'text', (c) => c.email],
  ['phone', 'text', (c) => c.phone],
  ['registry_parent_org_number', 'text', (c) => c.registryParentOrgNumber],
  ['founding_date', 'date', (c) => c.foundingDate],
  ['registration_date', 'date', (c) => c.registrationDate],
  ['registered_in_vat', 'boolean', (c) => c.registeredInVat],
  ['registered_in_biz', 'boolean', (c) => c.registeredInBiz],
  ['is_bankrupt', 'boolean', (c) => c.isBankrupt],
  ['is_being_dissolved', 'boolean', (c) => c.isBeingDissolved],
  ['is_in_forced_dissolution', 'boolean', (c) => c.isInForcedDissolution],
  ['is_in_debt_negotiation', 'boolean', (c) => c.isInDebtNegotiation ?? null],
  ['is_deleted', 'boolean', (c) => c.isDeleted],
  ['deleted_date', 'date', (c) => c.deletedDate],
  ['status', 'text', (c) => c.status],
  ['description', 'text', (c) => c.description],
  ['last_submitted_accounts_year', 'text', (c) => c.lastSubmittedAccountsYear],
];
const CORE_NAMES = columnNames(CORE_COLUMNS);
const CORE_SHAPE = recordShape('stage_companies', CORE_COLUMNS, [
  ['content_hash', 'text'],
  ['source', 'text'],
  ['fetched', 'boolean'],
  // The row's place in the batch, which orders its core events.
  ['ord', 'integer'],
]);
const UPDATES = setFromExcluded(CORE_NAMES.filter((n) => n !== 'country' && n !== 'org_number'));

// The registry parent wins; without one, a parent derived from shareholders (groups.ts) stays.
// is_in_group is raised with a parent here; the "has children" half and its lowering come with
// the set-based recompute (after shareholder imports and full brreg loads).
const REGISTRY = sql.lit(PARENT_SOURCE.registry);
const SHAREHOLDERS = sql.lit(PARENT_SOURCE.shareholders);
const PARENT = sql`COALESCE(EXCLUDED.registry_parent_org_number,
  CASE WHEN companies.parent_source = ${SHAREHOLDERS} THEN companies.parent_org_number END)`;
const PARENT_FROM = sql`CASE WHEN EXCLUDED.registry_parent_org_number IS NOT NULL THEN ${REGISTRY}
  WHEN companies.parent_source = ${SHAREHOLDERS} THEN ${SHAREHOLDERS} END`;

/** The stored content hash of companies by org number: what a write compares to skip unchanged rows. */
async function storedHashes(db: Db, country: string, orgNumbers: string[]): Promise<Map<string, string>> {
  if (!orgNumbers.length) return new Map();
  const res = await sql<{ org_number: string; content_hash: string }>`${sql.raw(PREPARED)}
    SELECT org_number, content_hash FROM companies
    WHERE country = ${country} AND org_number = ANY(${orgNumbers}::text[])`.execute(db);
  return new Map(res.rows.map((r) => [r.org_number, r.content_hash]));
}

async function upsertCores(
  db: Db,
  writes: CompanyWrite[],
  opts: WriteOptions,
  logEvents: boolean,
  source: RowSource = jsonRows,
): Promise<{ insertedIds: Set<number>; changedIds: Set<number>; coreStaged: boolean }> {
  // Read the stored hashes first and write only new or changed cores: a re-sync of an
  // unchanged register then costs one indexed read per batch instead of a write per row.
  // Into a store that was empty the read finds nothing (or what a concurrent writer added, which
  // the ON CONFLICT … WHERE below still leaves alone when unchanged), so it is skipped.
  const country = writes[0].core.country;
  const hashes = writes.map((w) => contentHash(w.core));
  const stored = opts.storeWasEmpty
    ? new Map<string, string>()
    : await storedHashes(
        db,
        country,
        writes.map((w) => w.core.orgNumber),
      );
  const todo = writes
    .map((w, i) => ({ w, h: hashes[i] }))
    .filter(({ w, h }) => stored.get(w.core.orgNumber) !== h || w.fetched);
  if (!todo.length) return { insertedIds: new Set(), changedIds: new Set(), coreStaged: false };
  const rows = todo.map(({ w, h }, i) => {
    const r = recordOf(CORE_COLUMNS, w.core, true);
    r.content_hash = h;
    r.source = w.core.source;
    r.fetched = w.fetched === true;
    r.ord = i;
    return r;
  });
  // The typed events of what changed are staged by the upsert's own statement
  // (core-events-sql.ts); a company this batch adds raises none, so a first load stages nothing.
  const coreStaged = logEvents && !opts.storeWasEmpty;
  if (coreStaged) await CREATE_CORE_EVENT_STAGE.execute(db);
  // `x` is read twice with the event log on; NOT MATERIALIZED: a copy of a staged batch costs more
  // than reading the staging table twice (PGlite's jsonb batch is parsed twice, but sent once).
  // Prepared (db.ts): its text is the same for every batch, and with the events' WITH item it
  // is 19 kB of SQL that took about 3 ms a batch to plan (BENCHMARKS.md).
  const res = await sql<{ id: number; inserted: boolean; changed: boolean }>`${sql.raw(PREPARED)}
    WITH x AS NOT MATERIALIZED (SELECT * FROM ${await source(CORE_SHAPE, rows)})
    ${coreStaged ? sql`, core_events AS (${stageCoreEvents()})` : sql``}
    INSERT INTO companies (${sql.raw(CORE_NAMES.join(', '))}, parent_org_number, parent_source, is_in_group, content_hash, sources, fetched_at)
    SELECT ${sql.raw(CORE_NAMES.map((n) => `x.${n}`).join(', '))},
           x.registry_parent_org_number, CASE WHEN x.registry_parent_org_number IS NULL THEN NULL ELSE ${REGISTRY} END,
           x.registry_parent_org_number IS NOT NULL,
           x.content_hash, jsonb_build_object('companyCore', x.source), CASE WHEN x.fetched THEN now() END
    FROM x
    ON CONFLICT (country, org_number) DO UPDATE SET
      ${sql.raw(UPDATES)},
      parent_org_number = ${PARENT},
      parent_source = ${PARENT_FROM},
      is_in_group = companies.is_in_group OR EXCLUDED.registry_parent_org_number IS NOT NULL,
      content_hash = EXCLUDED.content_hash,
      sources = companies.sources || EXCLUDED.sources,
      fetched_at = COALESCE(EXCLUDED.fetched_at, companies.fetched_at),
      updated_at = CASE WHEN companies.content_hash IS DISTINCT FROM EXCLUDED.content_hash THEN now() ELSE companies.updated_at END
    WHERE companies.content_hash IS DISTINCT FROM EXCLUDED.content_hash OR EXCLUDED.fetched_at IS NOT NULL
    RETURNING id, (xmax = 0) AS inserted, (updated_at = now()) AS changed`.execute(db);
  // The names that name matching ranks, in the same transaction.
  await addNameKeys(
    db,
    res.rows.map((r) => r.id),
  );
  return {
    insertedIds: new Set(res.rows.filter((r) => r.inserted).map((r) => r.id)),
    changedIds: new Set(res.rows.filter((r) => !r.inserted && r.changed).map((r) => r.id)),
    coreStaged,
  };
}

/**
 * `changes` hears, after each commit, which companies a write may have changed (record caches
 * of this process evict them at once; other processes follow the store).
 */
export function createCompanyWriteRepository(
  db: Kysely<Database>,
  changes?: CompanyChangeSignal,
  opts: CompanyWriteOptions = {},
) {
  // Events: null = no event log (the benchmark's baseline), else a batch's events.
  const newEvents = (): NewEvent[] | null => (opts.eventLog === false ? null : []);
  // Batches of cores and sub-units are COPYed into staging on a PostgreSQL server (row-source.ts).
  const transact = rowSourceTransactions(db, opts.copyPool);
  const announce = (country: string, orgNumbers: string[]) => {
    if (changes && orgNumbers.length) changes.changed({ keys: orgNumbers.map((n) => companyKey(country, n)) });
  };
  return {
    /** Writes a batch in one transaction: all of it or none of it. */
    async write(writes: CompanyWrite[], opts: WriteOptions = {}): Promise<WriteResult> {
      if (!writes.length) return { inserted: 0, changed: 0, unchanged: 0 };
      const result = await transact(writes.length, async (trx, rows) => {
        const events = newEvents();
        // The batch's core events are staged by the upsert and come first in the append.
        const { insertedIds, changedIds, coreStaged } = await upsertCores(trx, writes, opts, events !== null, rows);
        const country = writes[0].core.country;
        const withParts = writes.filter((w) => w.roles || w.financials || w.subUnits);
        if (withParts.length) {
          const { targets } = await findTargets(
            trx,
            country,
            withParts.map((w) => ({
              orgNumber: w.core.orgNumber,
              roles: w.roles,
              financials: w.financials,
              subUnits: w.subUnits,
            })),
          );
          for (const id of await writeParts(trx, country, targets, events)) changedIds.add(id);
        }
        if (events) await appendEvents(trx, events, rows, coreStaged); // last, see events/event-append.ts
        for (const id of insertedIds) changedIds.delete(id);
        return {
          inserted: insertedIds.size,
          changed: changedIds.size,
          unchanged: writes.length - insertedIds.size - changedIds.size,
        };
      });
      announce(
        writes[0].core.country,
        writes.map((w) => w.core.orgNumber),
      );
      return result;
    },

    /**
     * Roles and/or accounts for companies already in the store (bulk roles file, accounts
     * refresh). Unknown companies are skipped and counted.
     */
    async writeParts(
      country: string,
      parts: { orgNumber: string; roles?: RoleInput[]; financials?: FinancialInput[] }[],
      /** Runs in the same transaction after the parts (a job's ledger of what it has stored). */
      alsoInTransaction?: (trx: Db) => Promise<void>,
    ): Promise<{ changed: number; unknown: number }> {
      if (!parts.length) return { changed: 0, unknown: 0 };
      const result = await db.transaction().execute(async (trx) => {
        // Sub-units never come this way, whatever else the objects carry.
        const only = parts.map((p) => ({ orgNumber: p.orgNumber, roles: p.roles, financials: p.financials }));
        const { targets, unknown } = await findTargets(trx, country, only);
        const events = newEvents();
        const changed = (await writeParts(trx, country, targets, events)).size;
        if (events) await appendEvents(trx, events);
        if (alsoInTransaction) await alsoInTransaction(trx);
        return { changed, unknown };
      });
      announce(
        country,
        parts.map((p) => p.orgNumber),
      );
      return result;
    },

    /**
     * Sub-unit ingest; parents whose sub-units changed get a new updated_at (the change feed shows
     * them again). `parentsLater`: a full load leaves that to one `bumpSubUnitParents` at its end,
     * so a parent is written once per load, not once per batch that holds one of its units.
     * `noneStored`: the load began with no sub-unit of the country stored, so none is known before
     * (a first load raises no events) and the look-up is skipped: while the table grows from
     * empty its statistics are stale, and the planner scanned it whole for every batch.
     */
    async writeSubUnits(
      country: string,
      units: SubUnitInput[],
      opts: { parentsLater?: boolean; noneStored?: boolean } = {},
    ): Promise<number> {
      const parents = await transact(units.length, async (trx, rows) => {
        const known = opts.noneStored ? new Set<string>() : await knownSubUnits(trx, country, units);
        const changed = await upsertSubUnits(trx, country, units, rows);
        if (changed.length) {
          if (!opts.parentsLater)
            await sql`UPDATE companies SET updated_at = now() WHERE country = ${country} AND org_number = ANY(${changed}::text[])`.execute(
              trx,
            );
          await appendEvents(trx, subUnitEvents(country, changed, units, known));
        }
        return changed;
      });
      announce(country, parents);
      return parents.length;
    },

    /**
     * One set-based statement: every company that has a sub-unit changed after the company's own
     * updated_at gets a new one. It follows from the stored rows alone, so a load that stopped
     * before its end has its parents bumped by the next load, and a parent is never bumped
     * twice for one change. Returns how many were bumped.
     */
    async bumpSubUnitParents(country: string): Promise<number> {
      const r = await withoutStatementTimeout(db, (trx) =>
        sql`UPDATE companies c SET updated_at = now()
          FROM (SELECT parent_org_number, max(updated_at) AS changed_at FROM sub_units
                WHERE country = ${country} AND parent_org_number IS NOT NULL GROUP BY parent_org_number) s
          WHERE c.country = ${country} AND c.org_number = s.parent_org_number AND c.updated_at < s.changed_at`.execute(
          trx,
        ),
      );
      const bumped = Number(r.numAffectedRows ?? 0);
      // Which parents is not listed; every cached record of the country may be stale.
      if (bumped) changes?.changed({ all: true });
      return bumped;
    },

    /** Removed for legal reasons (brreg 410 / Fjernet): every copy goes. */
    async purge(country: string, orgNumber: string): Promise<boolean> {
      const purged = await db.transaction().execute(async (trx) => {
        await sql`DELETE FROM sub_units WHERE country = ${country} AND (org_number = ${orgNumber} OR parent_org_number = ${orgNumber})`.execute(
          trx,
        );
        const res = await trx
          .deleteFrom('companies')
          .where('country', '=', country)
          .where('org_number', '=', orgNumber)
          .executeTakeFirst();
        const gone = Number(res.numDeletedRows) > 0;
        if (gone) await appendEvents(trx, [purgeEvent(country, orgNumber)]);
        return gone;
      });
      announce(country, [orgNumber]);
      return purged;
    },

    async purgeSubUnit(country: string, orgNumber: string): Promise<void> {
      await db.deleteFrom('sub_units').where('country', '=', country).where('org_number', '=', orgNumber).execute();
      // Its parent's record lists it; the parent is not known here.
      changes?.changed({ all: true });
    },
  };
}

export type CompanyWriteRepository = ReturnType<typeof createCompanyWriteRepository>;
