// The parts of a stored company beside its core: roles, annual accounts and sub-units. Each part
// carries a content hash on the company row (roles_hash, sub_units_hash) or compares its own
// values (accounts), so a re-sync of identical parts writes nothing and bumps no updated_at.
import { sql } from 'kysely';
import type { NewEvent } from '../domain/company-events.ts';
import { SOURCE, type FinancialInput, type RoleInput, type SubUnitInput } from '../domain/company.ts';
import { accountEvents } from './events/account-events.ts';
import { knownSubUnits, roleChangeEvents, subUnitEvents } from './events/event-append.ts';
import {
  columnNames,
  contentHash,
  recordOf,
  recordType,
  setFromExcluded,
  type Column,
} from './engine/hashed-upsert.ts';
import { PREPARED } from './engine/db.ts';
import type { Db } from './engine/db-type.ts';
import { jsonRows, recordShape, type RowSource } from './engine/row-source.ts';

/** A part with the company it belongs to. */
interface Owned<T> {
  companyId: number;
  part: T;
}

// Rows per statement: a bulk roles file brings tens of thousands per batch of companies.
const CHUNK = 5000;

const ROLE_COLUMNS: Column<Owned<RoleInput>>[] = [
  ['company_id', 'bigint', (r) => r.companyId],
  ['group_code', 'text', (r) => r.part.groupCode],
  ['group_description', 'text', (r) => r.part.groupDescription],
  ['role_type_code', 'text', (r) => r.part.roleTypeCode],
  ['role_type_description', 'text', (r) => r.part.roleTypeDescription],
  ['person_first_name', 'text', (r) => r.part.personFirstName],
  ['person_middle_name', 'text', (r) => r.part.personMiddleName],
  ['person_last_name', 'text', (r) => r.part.personLastName],
  ['person_birth_year', 'integer', (r) => r.part.personBirthYear],
  ['entity_org_number', 'text', (r) => r.part.entityOrgNumber],
  ['entity_name', 'text', (r) => r.part.entityName],
  ['elected_by', 'text', (r) => r.part.electedBy],
  ['responsibility_share', 'text', (r) => r.part.responsibilityShare],
  ['position', 'integer', (r) => r.part.position],
];
const INSERT_ROLES = sql.raw(`INSERT INTO roles (${columnNames(ROLE_COLUMNS).join(', ')}) SELECT *`);
const ROLE_RECORD = sql.raw(recordType(ROLE_COLUMNS));

async function insertRoles(db: Db, targets: { id: number; roles: RoleInput[] }[]) {
  await sql`${sql.raw(PREPARED)} DELETE FROM roles WHERE company_id = ANY(${targets.map((t) => t.id)}::bigint[])`.execute(
    db,
  );
  const rows = targets.flatMap((t) => t.roles.map((part) => recordOf(ROLE_COLUMNS, { companyId: t.id, part })));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await sql`${sql.raw(PREPARED)} ${INSERT_ROLES} FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + CHUNK))}::jsonb)
      AS x(${ROLE_RECORD})`.execute(db);
  }
}

const FINANCIAL_COLUMNS: Column<Owned<FinancialInput>>[] = [
  ['company_id', 'bigint', (f) => f.companyId],
  ['upstream_id', 'text', (f) => f.part.upstreamId],
  ['accounts_type', 'text', (f) => f.part.accountsType],
  ['period_from', 'date', (f) => f.part.periodFrom],
  ['period_to', 'date', (f) => f.part.periodTo],
  ['currency', 'text', (f) => f.part.currency],
  ['revenue', 'bigint', (f) => f.part.revenue],
  ['operating_profit', 'bigint', (f) => f.part.operatingProfit],
  ['net_result', 'bigint', (f) => f.part.netResult],
  ['equity', 'bigint', (f) => f.part.equity],
  ['total_assets', 'bigint', (f) => f.part.totalAssets],
  ['total_liabilities', 'bigint', (f) => f.part.totalLiabilities],
  ['average_employees', 'integer', (f) => f.part.employees ?? null],
  ['source', 'text', (f) => f.part.source],
];
const FINANCIAL_KEY = ['company_id', 'period_to', 'accounts_type'];
const FINANCIAL_UPDATES = columnNames(FINANCIAL_COLUMNS).filter((n) => !FINANCIAL_KEY.includes(n));
// A new source name alone is no change of the accounts (it is still written with one).
const FINANCIAL_COMPARED = FINANCIAL_UPDATES.filter((n) => n !== 'source');
const UPSERT_FINANCIALS = {
  insert: sql.raw(`INSERT INTO financials (${columnNames(FINANCIAL_COLUMNS).join(', ')}) SELECT *`),
  record: sql.raw(recordType(FINANCIAL_COLUMNS)),
  conflict: sql.raw(`ON CONFLICT (${FINANCIAL_KEY.join(', ')}) DO UPDATE SET ${setFromExcluded(FINANCIAL_UPDATES)}
    WHERE (${FINANCIAL_COMPARED.map((n) => `financials.${n}`).join(', ')})
      IS DISTINCT FROM (${FINANCIAL_COMPARED.map((n) => `EXCLUDED.${n}`).join(', ')})`),
};

/** Upserts financial rows; returns the companies where a row was added or changed. */
async function upsertFinancials(db: Db, targets: { id: number; financials: FinancialInput[] }[]): Promise<number[]> {
  const rows = targets.flatMap((t) =>
    t.financials.map((part) => recordOf(FINANCIAL_COLUMNS, { companyId: t.id, part })),
  );
  // Earlier years are kept: the registry serves only recent ones, so depth grows over time.
  const changed = new Set<number>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const res = await sql<{ company_id: number }>`${sql.raw(PREPARED)} ${UPSERT_FINANCIALS.insert}
      FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + CHUNK))}::jsonb) AS x(${UPSERT_FINANCIALS.record})
      ${UPSERT_FINANCIALS.conflict}
      RETURNING company_id`.execute(db);
    for (const r of res.rows) changed.add(r.company_id);
  }
  return [...changed];
}

const SUB_UNIT_COLUMNS: Column<{ country: string; part: SubUnitInput }>[] = [
  ['country', 'text', (s) => s.country],
  ['org_number', 'text', (s) => s.part.orgNumber],
  ['parent_org_number', 'text', (s) => s.part.parentOrgNumber],
  ['name', 'text', (s) => s.part.name],
  ['org_form_code', 'text', (s) => s.part.orgFormCode],
  ['nace_code1', 'text', (s) => s.part.naceCode1],
  ['nace_description1', 'text', (s) => s.part.naceDescription1],
  ['employee_count', 'integer', (s) => s.part.employeeCount],
  ['address_street', 'text', (s) => s.part.address?.street ?? null],
  ['address_postal_code', 'text', (s) => s.part.address?.postalCode ?? null],
  ['address_city', 'text', (s) => s.part.address?.city ?? null],
  ['address_municipality', 'text', (s) => s.part.address?.municipality ?? null],
  ['address_muni_no', 'text', (s) => s.part.address?.municipalityNumber ?? null],
  ['start_date', 'date', (s) => s.part.startDate],
  ['closure_date', 'date', (s) => s.part.closureDate],
  ['is_deleted', 'boolean', (s) => s.part.isDeleted],
  ['content_hash', 'text', (s) => contentHash(s.part)],
];
const SUB_UNIT_NAMES = columnNames(SUB_UNIT_COLUMNS);
const SUB_UNIT_SHAPE = recordShape('stage_sub_units', SUB_UNIT_COLUMNS);
const UPSERT_SUB_UNITS = {
  insert: sql.raw(`INSERT INTO sub_units (${SUB_UNIT_NAMES.join(', ')}) SELECT *`),
  conflict: sql.raw(`ON CONFLICT (country, org_number) DO UPDATE SET
    ${setFromExcluded(SUB_UNIT_NAMES.filter((n) => n !== 'country' && n !== 'org_number'))}, updated_at = now()
    WHERE sub_units.content_hash IS DISTINCT FROM EXCLUDED.content_hash`),
};

/** Upserts sub-units; returns the parent org numbers whose sub-units changed. */
export async function upsertSubUnits(
  db: Db,
  country: string,
  units: SubUnitInput[],
  source: RowSource = jsonRows,
): Promise<string[]> {
  if (!units.length) return [];
  const rows = units.map((part) => recordOf(SUB_UNIT_COLUMNS, { country, part }));
  const res = await sql<{ parent_org_number: string | null }>`${sql.raw(PREPARED)} ${UPSERT_SUB_UNITS.insert}
    FROM ${await source(SUB_UNIT_SHAPE, rows)}
    ${UPSERT_SUB_UNITS.conflict}
    RETURNING parent_org_number`.execute(db);
  return [...new Set(res.rows.map((r) => r.parent_org_number).filter((p): p is string => p !== null))];
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

// Provenance of the parts, merged into companies.sources (jsonb).
// Norway's registers unless the country has its own (DK: CVR and its XBRL annual reports; FI: PRH's
// XBRL statements; SE: Bolagsverket's iXBRL annual reports).
const PART_SOURCES: Record<string, { roles: string; financials: string }> = {
  DK: { roles: SOURCE.cvr, financials: SOURCE.cvrFinancials },
  // Neither register publishes roles in the data we read; accounts come from their filings.
  FI: { roles: SOURCE.ytj, financials: SOURCE.prhFinancials },
  SE: { roles: SOURCE.bolagsverket, financials: SOURCE.bolagsverketFinancials },
};
const partSources = (country: string) => {
  const s = PART_SOURCES[country] ?? { roles: SOURCE.brreg, financials: SOURCE.regnskap };
  return {
    roles: sql.lit(JSON.stringify({ roles: s.roles })),
    financials: sql.lit(JSON.stringify({ financials: s.financials })),
  };
};

/** One UPDATE for every company a write touched: part hashes, provenance, revenue, updated_at. */
async function applyEffects(db: Db, effects: Map<number, Effects>, country: string) {
  const { roles: ROLES_SOURCE, financials: FINANCIALS_SOURCE } = partSources(country);
  const rows = [...effects.values()];
  if (!rows.length) return;
  await sql`${sql.raw(PREPARED)} UPDATE companies c SET
      roles_hash = COALESCE(x.roles_hash, c.roles_hash),
      sub_units_hash = COALESCE(x.sub_units_hash, c.sub_units_hash),
      latest_revenue = CASE WHEN x.fin THEN (SELECT f.revenue FROM financials f WHERE f.company_id = c.id
                         ORDER BY f.period_to DESC, (f.accounts_type = 'SELSKAP') DESC LIMIT 1) ELSE c.latest_revenue END,
      sources = (c.sources
                 || CASE WHEN x.has_roles IS TRUE THEN ${ROLES_SOURCE}::jsonb ELSE '{}'::jsonb END
                 || CASE WHEN x.fin THEN ${FINANCIALS_SOURCE}::jsonb ELSE '{}'::jsonb END)
                - CASE WHEN x.has_roles IS FALSE THEN 'roles' ELSE '' END,
      updated_at = CASE WHEN x.changed THEN now() ELSE c.updated_at END
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(id bigint, roles_hash text, has_roles boolean, fin boolean, sub_units_hash text, changed boolean)
    WHERE c.id = x.id`.execute(db);
}

/** A stored company and the parts a write brings for it (an omitted part is left as stored). */
interface PartTarget {
  id: number;
  orgNumber: string;
  storedRolesHash: string | null;
  storedSubUnitsHash: string | null;
  roles?: RoleInput[];
  financials?: FinancialInput[];
  subUnits?: SubUnitInput[];
}

/** The parts a write brings for one company, by org number. */
type PartsOf = Pick<PartTarget, 'orgNumber' | 'roles' | 'financials' | 'subUnits'>;

/** The companies of `parts` found in the store, as targets with their stored part hashes. */
export async function findTargets(
  db: Db,
  country: string,
  parts: PartsOf[],
): Promise<{ targets: PartTarget[]; unknown: number }> {
  const rows = await sql<{
    id: number;
    org_number: string;
    roles_hash: string | null;
    sub_units_hash: string | null;
  }>`${sql.raw(PREPARED)}
    SELECT id, org_number, roles_hash, sub_units_hash FROM companies
    WHERE country = ${country} AND org_number = ANY(${parts.map((p) => p.orgNumber)}::text[])`.execute(db);
  const known = new Map(rows.rows.map((r) => [r.org_number, r]));
  const targets: PartTarget[] = [];
  for (const p of parts) {
    const k = known.get(p.orgNumber);
    if (k) targets.push({ ...p, id: k.id, storedRolesHash: k.roles_hash, storedSubUnitsHash: k.sub_units_hash });
  }
  return { targets, unknown: parts.length - targets.length };
}

/** Writes roles, accounts and sub-units of known companies; returns the ids that changed. */
export async function writeParts(
  db: Db,
  country: string,
  targets: PartTarget[],
  /** Null: the event log is off (no before-images read). */
  events: NewEvent[] | null = [],
): Promise<Set<number>> {
  const effects = new Map<number, Effects>();
  const effect = (id: number) => effects.get(id) ?? (effects.set(id, { id }), effects.get(id)!);
  const roleTargets: { id: number; roles: RoleInput[] }[] = [];
  for (const t of targets) {
    if (!t.roles) continue;
    const h = contentHash(t.roles);
    if (h === t.storedRolesHash) continue;
    roleTargets.push({ id: t.id, roles: t.roles });
    Object.assign(effect(t.id), { roles_hash: h, has_roles: t.roles.length > 0, changed: true });
  }
  if (roleTargets.length) {
    // Events: roles seen for the first time (no stored hash: a first load) raise none.
    const known = new Set(targets.filter((t) => t.storedRolesHash !== null).map((t) => t.id));
    if (events)
      events.push(
        ...(await roleChangeEvents(
          db,
          country,
          targets,
          roleTargets.filter((t) => known.has(t.id)),
        )),
      );
    await insertRoles(db, roleTargets);
  }

  const finTargets = targets
    .filter((t) => t.financials?.length)
    .map((t) => ({ id: t.id, orgNumber: t.orgNumber, financials: t.financials! }));
  if (finTargets.length) {
    if (events) events.push(...(await accountEvents(db, country, finTargets)));
    for (const id of await upsertFinancials(db, finTargets)) Object.assign(effect(id), { fin: true, changed: true });
  }

  const parents = targets.filter((t) => t.subUnits);
  if (parents.length) {
    const units = parents.flatMap((p) => p.subUnits!);
    // Events: the units the store held before (units seen for the first time raise none).
    const known = events ? await knownSubUnits(db, country, units) : new Set<string>();
    const changedParents = new Set(await upsertSubUnits(db, country, units));
    // A unit no longer listed under its parent is gone from the registry's search.
    const lists = parents.map((p) => ({ parent: p.orgNumber, units: p.subUnits!.map((u) => u.orgNumber) }));
    const gone = await sql<{ parent_org_number: string }>`DELETE FROM sub_units s
      USING jsonb_to_recordset(${JSON.stringify(lists)}::jsonb) AS x(parent text, units text[])
      WHERE s.country = ${country} AND s.parent_org_number = x.parent AND NOT (s.org_number = ANY(x.units))
      RETURNING s.parent_org_number`.execute(db);
    for (const g of gone.rows) changedParents.add(g.parent_org_number);
    if (events) events.push(...subUnitEvents(country, [...changedParents], units, known));
    for (const p of parents) {
      const h = contentHash(p.subUnits!.map((s) => s.orgNumber).sort());
      if (h !== p.storedSubUnitsHash) Object.assign(effect(p.id), { sub_units_hash: h });
      if (h !== p.storedSubUnitsHash || changedParents.has(p.orgNumber)) effect(p.id).changed = true;
    }
  }
  await applyEffects(db, effects, country);
  return new Set([...effects.values()].filter((e) => e.changed).map((e) => e.id));
}
