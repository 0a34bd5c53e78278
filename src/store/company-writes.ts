// Batched ingest of company records. Each part (core, roles, financials, sub-units) carries a
// content hash; a part is written, and updated_at bumped, only when its hash changes, so a
// re-sync of identical data changes nothing and the change feed carries real changes only.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  normaliseCompanyName,
  type CompanyCore,
  type FinancialInput,
  type RoleInput,
  type SubUnitInput,
} from '../domain/company.ts';
import type { Database } from './schema.ts';

export interface CompanyWrite {
  core: CompanyCore;
  /** Omitted: roles not part of this ingest (left as stored). [] = the company has none. */
  roles?: RoleInput[];
  financials?: FinancialInput[];
  subUnits?: SubUnitInput[];
  /** Set when the record was fetched live from the registry just now. */
  fetched?: boolean;
}

export interface WriteOptions {
  /**
   * The caller found no company of any country in the store when its load began (a first full
   * load): new rows are the rule, and reading stored hashes first is a wasted round trip.
   */
  storeWasEmpty?: boolean;
}

export interface WriteResult {
  inserted: number;
  changed: number;
  unchanged: number;
}

type Db = Kysely<Database> | Transaction<Database>;

const hash = (v: unknown) => createHash('sha1').update(JSON.stringify(v)).digest('hex');

// [column, postgres type, value]: one list drives the INSERT column list, the record type of
// jsonb_to_recordset and the UPDATE SET clause.
type Column = [string, string, (c: CompanyCore) => unknown];
const CORE_COLUMNS: Column[] = [
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
  ['is_deleted', 'boolean', (c) => c.isDeleted],
  ['deleted_date', 'date', (c) => c.deletedDate],
  ['status', 'text', (c) => c.status],
  ['description', 'text', (c) => c.description],
  ['last_submitted_accounts_year', 'text', (c) => c.lastSubmittedAccountsYear],
];
const CORE_NAMES = CORE_COLUMNS.map(([n]) => n);
const RECORD_TYPE = [
  ...CORE_COLUMNS.map(([n, t]) => `${n} ${t}`),
  'content_hash text',
  'source text',
  'fetched boolean',
].join(', ');
const UPDATABLE = CORE_NAMES.filter((n) => n !== 'country' && n !== 'org_number');

// The registry parent wins; without one, a parent derived from shareholders (groups.ts) stays.
// is_in_group is raised with a parent here; the "has children" half and its lowering come with
// the set-based recompute (after shareholder imports and full brreg loads).
const PARENT = `COALESCE(EXCLUDED.registry_parent_org_number,
  CASE WHEN companies.parent_source = 'shareholders' THEN companies.parent_org_number END)`;
const PARENT_SOURCE = `CASE WHEN EXCLUDED.registry_parent_org_number IS NOT NULL THEN 'registry'
  WHEN companies.parent_source = 'shareholders' THEN 'shareholders' END`;

async function readStoredHashes(db: Db, writes: CompanyWrite[]): Promise<Map<string, string>> {
  const stored = await sql<{ org_number: string; content_hash: string }>`
    SELECT org_number, content_hash FROM companies
    WHERE country = ${writes[0].core.country} AND org_number = ANY(${writes.map((w) => w.core.orgNumber)}::text[])`.execute(
    db,
  );
  return new Map(stored.rows.map((r) => [r.org_number, r.content_hash]));
}

async function upsertCores(
  db: Db,
  writes: CompanyWrite[],
  opts: WriteOptions,
): Promise<{ insertedIds: Set<number>; changedIds: Set<number> }> {
  // Read the stored hashes first and write only new or changed cores: a re-sync of an
  // unchanged register then costs one indexed read per batch instead of a write per row.
  // Into a store that was empty the read finds nothing (or what a concurrent writer added, which
  // the ON CONFLICT … WHERE below still leaves alone when unchanged), so it is skipped.
  const hashes = writes.map((w) => hash(w.core));
  const storedHash = opts.storeWasEmpty ? new Map<string, string>() : await readStoredHashes(db, writes);
  const todo = writes
    .map((w, i) => ({ w, h: hashes[i] }))
    .filter(({ w, h }) => storedHash.get(w.core.orgNumber) !== h || w.fetched);
  if (!todo.length) return { insertedIds: new Set(), changedIds: new Set() };
  const rows = todo.map(({ w, h }) => {
    const r: Record<string, unknown> = {};
    for (const [name, , get] of CORE_COLUMNS) {
      const v = get(w.core);
      // jsonb_to_recordset reads a missing key as NULL, as it does a JSON null: leaving nulls out
      // makes a quarter less text to build, send and parse on a registry row.
      if (v !== null) r[name] = v;
    }
    r.content_hash = h;
    r.source = w.core.source;
    r.fetched = w.fetched === true;
    return r;
  });
  const res = await sql<{ id: number; inserted: boolean; changed: boolean }>`
    INSERT INTO companies (${sql.raw(CORE_NAMES.join(', '))}, parent_org_number, parent_source, is_in_group, content_hash, sources, fetched_at)
    SELECT ${sql.raw(CORE_NAMES.map((n) => `x.${n}`).join(', '))},
           x.registry_parent_org_number, CASE WHEN x.registry_parent_org_number IS NULL THEN NULL ELSE 'registry' END,
           x.registry_parent_org_number IS NOT NULL,
           x.content_hash, jsonb_build_object('companyCore', x.source), CASE WHEN x.fetched THEN now() END
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${sql.raw(RECORD_TYPE)})
    ON CONFLICT (country, org_number) DO UPDATE SET
      ${sql.raw(UPDATABLE.map((n) => `${n} = EXCLUDED.${n}`).join(', '))},
      parent_org_number = ${sql.raw(PARENT)},
      parent_source = ${sql.raw(PARENT_SOURCE)},
      is_in_group = companies.is_in_group OR EXCLUDED.registry_parent_org_number IS NOT NULL,
      content_hash = EXCLUDED.content_hash,
      sources = companies.sources || EXCLUDED.sources,
      fetched_at = COALESCE(EXCLUDED.fetched_at, companies.fetched_at),
      updated_at = CASE WHEN companies.content_hash IS DISTINCT FROM EXCLUDED.content_hash THEN now() ELSE companies.updated_at END
    WHERE companies.content_hash IS DISTINCT FROM EXCLUDED.content_hash OR EXCLUDED.fetched_at IS NOT NULL
    RETURNING id, (xmax = 0) AS inserted, (updated_at = now()) AS changed`.execute(db);
  return {
    insertedIds: new Set(res.rows.filter((r) => r.inserted).map((r) => r.id)),
    changedIds: new Set(res.rows.filter((r) => !r.inserted && r.changed).map((r) => r.id)),
  };
}

/** What one company's parts did in this write, applied in one UPDATE at the end. */
interface Effects {
  id: number;
  roles_hash?: string;
  has_roles?: boolean;
  fin?: boolean;
  sub_units_hash?: string;
  changed?: boolean;
}

async function insertRoles(db: Db, targets: { id: number; roles: RoleInput[] }[]) {
  await sql`DELETE FROM roles WHERE company_id = ANY(${targets.map((t) => t.id)}::bigint[])`.execute(db);
  const rows = targets.flatMap((t) =>
    t.roles.map((r) => ({
      company_id: t.id,
      group_code: r.groupCode,
      group_description: r.groupDescription,
      role_type_code: r.roleTypeCode,
      role_type_description: r.roleTypeDescription,
      person_first_name: r.personFirstName,
      person_middle_name: r.personMiddleName,
      person_last_name: r.personLastName,
      person_birth_year: r.personBirthYear,
      entity_org_number: r.entityOrgNumber,
      entity_name: r.entityName,
      elected_by: r.electedBy,
      responsibility_share: r.responsibilityShare,
      position: r.position,
    })),
  );
  for (let i = 0; i < rows.length; i += 5000) {
    await sql`INSERT INTO roles (company_id, group_code, group_description, role_type_code, role_type_description, person_first_name,
        person_middle_name, person_last_name, person_birth_year, entity_org_number, entity_name, elected_by, responsibility_share, position)
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 5000))}::jsonb) AS x(company_id bigint, group_code text,
        group_description text, role_type_code text, role_type_description text, person_first_name text, person_middle_name text,
        person_last_name text, person_birth_year integer, entity_org_number text, entity_name text, elected_by text,
        responsibility_share text, position integer)`.execute(db);
  }
}

/** Upserts financial rows; returns the companies where a row was added or changed. */
async function upsertFinancials(db: Db, targets: { id: number; financials: FinancialInput[] }[]): Promise<number[]> {
  const rows = targets.flatMap((t) =>
    t.financials.map((f) => ({
      company_id: t.id,
      upstream_id: f.upstreamId,
      accounts_type: f.accountsType,
      period_from: f.periodFrom,
      period_to: f.periodTo,
      currency: f.currency,
      revenue: f.revenue,
      operating_profit: f.operatingProfit,
      net_result: f.netResult,
      equity: f.equity,
      total_assets: f.totalAssets,
      total_liabilities: f.totalLiabilities,
      source: f.source,
    })),
  );
  // Earlier years are kept: the registry serves only recent ones, so depth grows over time.
  const changed = new Set<number>();
  for (let i = 0; i < rows.length; i += 5000) {
    const res = await sql<{ company_id: number }>`
      INSERT INTO financials (company_id, upstream_id, accounts_type, period_from, period_to, currency, revenue,
        operating_profit, net_result, equity, total_assets, total_liabilities, source)
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 5000))}::jsonb) AS x(company_id bigint, upstream_id text,
        accounts_type text, period_from date, period_to date, currency text, revenue bigint, operating_profit bigint,
        net_result bigint, equity bigint, total_assets bigint, total_liabilities bigint, source text)
      ON CONFLICT (company_id, period_to, accounts_type) DO UPDATE SET
        upstream_id = EXCLUDED.upstream_id, period_from = EXCLUDED.period_from, currency = EXCLUDED.currency,
        revenue = EXCLUDED.revenue, operating_profit = EXCLUDED.operating_profit, net_result = EXCLUDED.net_result,
        equity = EXCLUDED.equity, total_assets = EXCLUDED.total_assets, total_liabilities = EXCLUDED.total_liabilities,
        source = EXCLUDED.source
      WHERE (financials.upstream_id, financials.period_from, financials.currency, financials.revenue, financials.operating_profit,
             financials.net_result, financials.equity, financials.total_assets, financials.total_liabilities)
        IS DISTINCT FROM (EXCLUDED.upstream_id, EXCLUDED.period_from, EXCLUDED.currency, EXCLUDED.revenue, EXCLUDED.operating_profit,
             EXCLUDED.net_result, EXCLUDED.equity, EXCLUDED.total_assets, EXCLUDED.total_liabilities)
      RETURNING company_id`.execute(db);
    for (const r of res.rows) changed.add(r.company_id);
  }
  return [...changed];
}

/** One UPDATE for every company a write touched: part hashes, provenance, revenue, updated_at. */
async function applyEffects(db: Db, effects: Map<number, Effects>) {
  const rows = [...effects.values()];
  if (!rows.length) return;
  await sql`UPDATE companies c SET
      roles_hash = COALESCE(x.roles_hash, c.roles_hash),
      sub_units_hash = COALESCE(x.sub_units_hash, c.sub_units_hash),
      latest_revenue = CASE WHEN x.fin THEN (SELECT f.revenue FROM financials f WHERE f.company_id = c.id
                         ORDER BY f.period_to DESC, (f.accounts_type = 'SELSKAP') DESC LIMIT 1) ELSE c.latest_revenue END,
      sources = (c.sources
                 || CASE WHEN x.has_roles IS TRUE THEN '{"roles":"Brønnøysundregistrene"}'::jsonb ELSE '{}'::jsonb END
                 || CASE WHEN x.fin THEN '{"financials":"Regnskapsregisteret"}'::jsonb ELSE '{}'::jsonb END)
                - CASE WHEN x.has_roles IS FALSE THEN 'roles' ELSE '' END,
      updated_at = CASE WHEN x.changed THEN now() ELSE c.updated_at END
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(id bigint, roles_hash text, has_roles boolean, fin boolean, sub_units_hash text, changed boolean)
    WHERE c.id = x.id`.execute(db);
}

interface PartTarget {
  id: number;
  orgNumber: string;
  storedRolesHash: string | null;
  storedSubUnitsHash: string | null;
  roles?: RoleInput[];
  financials?: FinancialInput[];
  subUnits?: SubUnitInput[];
}

/** Writes roles, accounts and sub-units of known companies; returns the ids that changed. */
async function writeParts(db: Db, country: string, targets: PartTarget[]): Promise<Set<number>> {
  const effects = new Map<number, Effects>();
  const effect = (id: number) => effects.get(id) ?? (effects.set(id, { id }), effects.get(id)!);
  const roleTargets: { id: number; roles: RoleInput[] }[] = [];
  for (const t of targets) {
    if (!t.roles) continue;
    const h = hash(t.roles);
    if (h === t.storedRolesHash) continue;
    roleTargets.push({ id: t.id, roles: t.roles });
    Object.assign(effect(t.id), { roles_hash: h, has_roles: t.roles.length > 0, changed: true });
  }
  if (roleTargets.length) await insertRoles(db, roleTargets);

  const finTargets = targets.filter((t) => t.financials?.length).map((t) => ({ id: t.id, financials: t.financials! }));
  if (finTargets.length)
    for (const id of await upsertFinancials(db, finTargets)) Object.assign(effect(id), { fin: true, changed: true });

  const parents = targets.filter((t) => t.subUnits);
  if (parents.length) {
    const changedParents = new Set(
      await upsertSubUnits(
        db,
        country,
        parents.flatMap((p) => p.subUnits!),
      ),
    );
    // A unit no longer listed under its parent is gone from the registry's search.
    const lists = parents.map((p) => ({ parent: p.orgNumber, units: p.subUnits!.map((u) => u.orgNumber) }));
    const gone = await sql<{ parent_org_number: string }>`DELETE FROM sub_units s
      USING jsonb_to_recordset(${JSON.stringify(lists)}::jsonb) AS x(parent text, units text[])
      WHERE s.country = ${country} AND s.parent_org_number = x.parent AND NOT (s.org_number = ANY(x.units))
      RETURNING s.parent_org_number`.execute(db);
    for (const g of gone.rows) changedParents.add(g.parent_org_number);
    for (const p of parents) {
      const h = hash(p.subUnits!.map((s) => s.orgNumber).sort());
      if (h !== p.storedSubUnitsHash) Object.assign(effect(p.id), { sub_units_hash: h });
      if (h !== p.storedSubUnitsHash || changedParents.has(p.orgNumber)) effect(p.id).changed = true;
    }
  }
  await applyEffects(db, effects);
  return new Set([...effects.values()].filter((e) => e.changed).map((e) => e.id));
}

async function findTargets(db: Db, country: string, orgNumbers: string[]) {
  const rows = await sql<{ id: number; org_number: string; roles_hash: string | null; sub_units_hash: string | null }>`
    SELECT id, org_number, roles_hash, sub_units_hash FROM companies
    WHERE country = ${country} AND org_number = ANY(${orgNumbers}::text[])`.execute(db);
  return new Map(rows.rows.map((r) => [r.org_number, r]));
}

const subUnitHash = (s: SubUnitInput) => hash(s);

/** Upserts sub-units; returns the parent org numbers whose sub-units changed. */
export async function upsertSubUnits(db: Db, country: string, units: SubUnitInput[]): Promise<string[]> {
  if (!units.length) return [];
  const rows = units.map((s) => ({
    country,
    org_number: s.orgNumber,
    parent_org_number: s.parentOrgNumber,
    name: s.name,
    org_form_code: s.orgFormCode,
    nace_code1: s.naceCode1,
    nace_description1: s.naceDescription1,
    employee_count: s.employeeCount,
    address_street: s.address?.street ?? null,
    address_postal_code: s.address?.postalCode ?? null,
    address_city: s.address?.city ?? null,
    address_municipality: s.address?.municipality ?? null,
    address_muni_no: s.address?.municipalityNumber ?? null,
    start_date: s.startDate,
    closure_date: s.closureDate,
    is_deleted: s.isDeleted,
    content_hash: subUnitHash(s),
  }));
  const res = await sql<{ parent_org_number: string | null }>`
    INSERT INTO sub_units (country, org_number, parent_org_number, name, org_form_code, nace_code1, nace_description1,
      employee_count, address_street, address_postal_code, address_city, address_municipality, address_muni_no,
      start_date, closure_date, is_deleted, content_hash)
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(country text, org_number text, parent_org_number text,
      name text, org_form_code text, nace_code1 text, nace_description1 text, employee_count integer, address_street text,
      address_postal_code text, address_city text, address_municipality text, address_muni_no text, start_date date,
      closure_date date, is_deleted boolean, content_hash text)
    ON CONFLICT (country, org_number) DO UPDATE SET
      parent_org_number = EXCLUDED.parent_org_number, name = EXCLUDED.name, org_form_code = EXCLUDED.org_form_code,
      nace_code1 = EXCLUDED.nace_code1, nace_description1 = EXCLUDED.nace_description1, employee_count = EXCLUDED.employee_count,
      address_street = EXCLUDED.address_street, address_postal_code = EXCLUDED.address_postal_code,
      address_city = EXCLUDED.address_city, address_municipality = EXCLUDED.address_municipality,
      address_muni_no = EXCLUDED.address_muni_no, start_date = EXCLUDED.start_date, closure_date = EXCLUDED.closure_date,
      is_deleted = EXCLUDED.is_deleted, content_hash = EXCLUDED.content_hash, updated_at = now()
    WHERE sub_units.content_hash IS DISTINCT FROM EXCLUDED.content_hash
    RETURNING parent_org_number`.execute(db);
  return [...new Set(res.rows.map((r) => r.parent_org_number).filter((p): p is string => p !== null))];
}

export function createCompanyWriteRepository(db: Kysely<Database>) {
  return {
    /** Writes a batch in one transaction: all of it or none of it. */
    async write(writes: CompanyWrite[], opts: WriteOptions = {}): Promise<WriteResult> {
      if (!writes.length) return { inserted: 0, changed: 0, unchanged: 0 };
      return db.transaction().execute(async (trx) => {
        const { insertedIds, changedIds } = await upsertCores(trx, writes, opts);
        const country = writes[0].core.country;
        const withParts = writes.filter((w) => w.roles || w.financials || w.subUnits);
        if (withParts.length) {
          const known = await findTargets(
            trx,
            country,
            withParts.map((w) => w.core.orgNumber),
          );
          const targets: PartTarget[] = withParts.flatMap((w) => {
            const k = known.get(w.core.orgNumber);
            return k
              ? [
                  {
                    id: k.id,
                    orgNumber: w.core.orgNumber,
                    storedRolesHash: k.roles_hash,
                    storedSubUnitsHash: k.sub_units_hash,
                    roles: w.roles,
                    financials: w.financials,
                    subUnits: w.subUnits,
                  },
                ]
              : [];
          });
          for (const id of await writeParts(trx, country, targets)) changedIds.add(id);
        }
        for (const id of insertedIds) changedIds.delete(id);
        return {
          inserted: insertedIds.size,
          changed: changedIds.size,
          unchanged: writes.length - insertedIds.size - changedIds.size,
        };
      });
    },

    /**
     * Roles and/or accounts for companies already in the store (bulk roles file, accounts
     * refresh). Unknown companies are skipped and counted.
     */
    async writeParts(
      country: string,
      parts: { orgNumber: string; roles?: RoleInput[]; financials?: FinancialInput[] }[],
    ): Promise<{ changed: number; unknown: number }> {
      if (!parts.length) return { changed: 0, unknown: 0 };
      return db.transaction().execute(async (trx) => {
        const known = await findTargets(
          trx,
          country,
          parts.map((p) => p.orgNumber),
        );
        const targets: PartTarget[] = [];
        let unknown = 0;
        for (const p of parts) {
          const k = known.get(p.orgNumber);
          if (!k) unknown++;
          else
            targets.push({
              id: k.id,
              orgNumber: p.orgNumber,
              storedRolesHash: k.roles_hash,
              storedSubUnitsHash: k.sub_units_hash,
              roles: p.roles,
              financials: p.financials,
            });
        }
        return { changed: (await writeParts(trx, country, targets)).size, unknown };
      });
    },

    /** Bulk sub-unit ingest (the underenheter dump); parents whose sub-units changed get a new updated_at. */
    async writeSubUnits(country: string, units: SubUnitInput[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const parents = await upsertSubUnits(trx, country, units);
        if (parents.length) {
          await sql`UPDATE companies SET updated_at = now() WHERE country = ${country} AND org_number = ANY(${parents}::text[])`.execute(
            trx,
          );
        }
        return parents.length;
      });
    },

    /** Removed for legal reasons (brreg 410 / Fjernet): every copy goes. */
    async purge(country: string, orgNumber: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await sql`DELETE FROM sub_units WHERE country = ${country} AND (org_number = ${orgNumber} OR parent_org_number = ${orgNumber})`.execute(
          trx,
        );
        const res = await trx
          .deleteFrom('companies')
          .where('country', '=', country)
          .where('org_number', '=', orgNumber)
          .executeTakeFirst();
        return Number(res.numDeletedRows) > 0;
      });
    },

    async purgeSubUnit(country: string, orgNumber: string): Promise<void> {
      await db.deleteFrom('sub_units').where('country', '=', country).where('org_number', '=', orgNumber).execute();
    },
  };
}

export type CompanyWriteRepository = ReturnType<typeof createCompanyWriteRepository>;
