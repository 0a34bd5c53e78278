// The write half of the company event log: what the parts of an ingest batch held
// before it (roles, sub-units), the events they raise, and the append of all of a transaction's
// events, the core events its company upsert staged (core-events-sql.ts) first.
//
// Gapless seq: appendEvents takes its numbers from the one row of event_seq with an UPDATE, as
// the last statement of the writing transaction. The row lock is held to commit, so a later seq
// never commits before an earlier one (readers resuming from a seq never miss one that commits
// late) and a rollback gives the numbers back (no holes). Writers serialise only for the span
// between that UPDATE and their commit.
import { sql } from 'kysely';
import { roleEvents, type NewEvent, type RoleHolder } from '../../domain/company-events.ts';
import { SOURCE, type SubUnitInput } from '../../domain/company.ts';
import type { Db } from '../engine/db-type.ts';
import { PREPARED } from '../engine/db.ts';
import { COPY_MIN_ROWS, copyText, jsonRows, type RecordShape, type RowSource } from '../engine/row-source.ts';

/** The stored role holders of companies (by company id), named only: no birth year. */
async function rolesBefore(db: Db, ids: number[]): Promise<Map<number, RoleHolder[]>> {
  const m = new Map<number, RoleHolder[]>();
  if (!ids.length) return m;
  const res = await sql<RoleHolder & { company_id: number }>`SELECT company_id, role_type_code AS "roleTypeCode",
      person_first_name AS "personFirstName", person_middle_name AS "personMiddleName",
      person_last_name AS "personLastName", entity_org_number AS "entityOrgNumber", entity_name AS "entityName"
    FROM roles WHERE company_id = ANY(${ids}::bigint[])`.execute(db);
  for (const r of res.rows) m.set(r.company_id, [...(m.get(r.company_id) ?? []), r]);
  return m;
}

/**
 * The columns an append writes. occurred_at is the column's default (the commit's now()); id is
 * left NULL: readers derive it from the seq (migration 0025).
 */
const EVENT_FIELDS: RecordShape['fields'] = [
  ['seq', 'bigint'],
  ['org_number', 'text'],
  ['country', 'text'],
  ['category', 'text'],
  ['type', 'text'],
  ['fields_changed', 'text[]'],
  ['before', 'json'],
  ['after', 'json'],
  ['source', 'text'],
];
const EVENT_COLUMNS = EVENT_FIELDS.map(([n]) => n);
const EVENT_NAMES = sql.raw(EVENT_COLUMNS.join(', '));

const eventRecord = (e: NewEvent): Record<string, unknown> => ({
  org_number: e.orgNumber,
  country: e.country,
  category: e.category,
  type: e.type,
  fields_changed: e.fieldsChanged,
  before: e.before,
  after: e.after,
  source: e.source,
});

/**
 * One event's COPY text: the columns of EVENT_FIELDS after seq, in order. Written out rather
 * than through `copyRow(fields, eventRecord(e))`, which builds a record per event first. Category
 * is one of EVENT_CATEGORIES (nothing to escape).
 */
const eventLine = (e: NewEvent): string =>
  [
    copyText(e.orgNumber, 'text'),
    copyText(e.country, 'text'),
    e.category,
    copyText(e.type, 'text'),
    copyText(e.fieldsChanged, 'text[]'),
    copyText(e.before, 'json'),
    copyText(e.after, 'json'),
    copyText(e.source, 'text'),
  ].join('\t');

/** COPY lines with their seq in front, made as the COPY stream reads them (no array of copies). */
function* numbered(first: number, lines: string[]): Generator<string> {
  for (let i = 0; i < lines.length; i++) yield `${first + i}\t${lines[i]}`;
}

/** The staging table of a transaction's core events (core-events-sql.ts), in the order `ord` gives. */
export const CORE_EVENT_STAGE = 'stage_core_events';
/** The event columns the stage holds: all but seq, which the append gives. */
const STAGED_EVENT_FIELDS = EVENT_FIELDS.filter(([n]) => n !== 'seq');

/**
 * Creates the stage in this session if it has none. Emptied at every commit (ON COMMIT DELETE
 * ROWS), and a rolled-back transaction's rows go with it, so it holds this transaction's only.
 */
export const CREATE_CORE_EVENT_STAGE = sql.raw(
  `CREATE TEMP TABLE IF NOT EXISTS ${CORE_EVENT_STAGE} (ord bigint, ${STAGED_EVENT_FIELDS.map(([n, t]) => `${n} ${t}`).join(', ')}) ON COMMIT DELETE ROWS`,
);

/** The stage's event columns as an SQL column list (the stage's insert and the append read it). */
export const STAGED_COLUMN_LIST = STAGED_EVENT_FIELDS.map(([n]) => n).join(', ');
const STAGED_COLUMNS = sql.raw(STAGED_COLUMN_LIST);
const STAGED = sql.raw(CORE_EVENT_STAGE);

/**
 * Appends events with the next seqs, in the caller's transaction. Call it last, just before the
 * transaction commits (see the note at the top of this file). With `coreStaged`, the core events
 * the transaction's company upsert staged (core-events-sql.ts) come first, in their staged order,
 * then `events`. Those are COPYed on a server transaction that COPYs when there are many
 * (`rows.copyInto`); otherwise one INSERT reads them as jsonb.
 */
export async function appendEvents(
  db: Db,
  events: NewEvent[],
  rows: RowSource = jsonRows,
  coreStaged = false,
): Promise<void> {
  if (!events.length && !coreStaged) return;
  const copy = rows.copyInto && events.length >= COPY_MIN_ROWS ? rows.copyInto : undefined;
  // The text of the events is made before the seq row is locked.
  const lines = copy ? events.map(eventLine) : [];
  const staged = coreStaged ? sql`(SELECT count(*) FROM ${STAGED})` : sql`0`;
  const top = await sql<{ last_seq: number; staged: number }>`${sql.raw(PREPARED)} UPDATE event_seq
    SET last_seq = last_seq + ${events.length}::integer + ${staged}
    RETURNING last_seq, ${staged} AS staged`.execute(db);
  const stagedCount = Number(top.rows[0].staged);
  const first = Number(top.rows[0].last_seq) - stagedCount - events.length + 1;
  if (stagedCount)
    await sql`${sql.raw(PREPARED)} INSERT INTO company_events (seq, ${STAGED_COLUMNS})
      SELECT ${first - 1}::bigint + row_number() OVER (ORDER BY ord), ${STAGED_COLUMNS} FROM ${STAGED}`.execute(db);
  if (!events.length) return;
  const next = first + stagedCount;
  if (copy) return copy('company_events', EVENT_COLUMNS, numbered(next, lines));
  const records = events.map((e, i) => ({ seq: next + i, ...eventRecord(e) }));
  await sql`INSERT INTO company_events (${EVENT_NAMES})
    SELECT ${EVENT_NAMES} FROM ${await jsonRows({ stage: 'company_events', fields: EVENT_FIELDS }, records)}`.execute(
    db,
  );
}

/** Who supplies roles and sub-units, per country (the core carries its own source). */
const PART_SOURCE: Record<string, string> = { NO: SOURCE.brreg, FI: SOURCE.ytj, SE: SOURCE.bolagsverket };
const partSource = (country: string) => PART_SOURCE[country] ?? country;

/** `roles` events for the targets whose roles are about to be replaced (read before the write). */
export async function roleChangeEvents(
  db: Db,
  country: string,
  targets: { id: number; orgNumber: string }[],
  changing: { id: number; roles: RoleHolder[] }[],
): Promise<NewEvent[]> {
  const stored = await rolesBefore(
    db,
    changing.map((t) => t.id),
  );
  const orgOf = new Map(targets.map((t) => [t.id, t.orgNumber]));
  return changing.flatMap((t) =>
    roleEvents({ country, orgNumber: orgOf.get(t.id)!, source: partSource(country) }, stored.get(t.id) ?? [], t.roles),
  );
}

/** The incoming sub-units the store already holds (a unit seen for the first time raises no event). */
export async function knownSubUnits(db: Db, country: string, units: SubUnitInput[]): Promise<Set<string>> {
  if (!units.length) return new Set();
  const res = await sql<{ org_number: string }>`SELECT org_number FROM sub_units
    WHERE country = ${country} AND org_number = ANY(${units.map((u) => u.orgNumber)}::text[])`.execute(db);
  return new Set(res.rows.map((r) => r.org_number));
}

/**
 * One `subUnits` event per parent whose sub-units changed, naming its changed units that the store
 * held before (a first load of the sub-unit register raises none).
 */
export function subUnitEvents(
  country: string,
  parents: string[],
  units: SubUnitInput[],
  known: Set<string>,
): NewEvent[] {
  return parents.flatMap((parent) => {
    const changed = units.filter((u) => u.parentOrgNumber === parent && known.has(u.orgNumber)).map((u) => u.orgNumber);
    if (!changed.length) return [];
    const event: NewEvent = {
      country,
      orgNumber: parent,
      category: 'subUnits',
      type: 'sub_units_changed',
      fieldsChanged: ['subUnits'],
      before: {},
      after: { subUnits: changed },
      source: partSource(country),
    };
    return [event];
  });
}

/** A company removed from the registry for legal reasons: its copy is purged, no values kept. */
export function purgeEvent(country: string, orgNumber: string): NewEvent {
  return {
    country,
    orgNumber,
    category: 'deleted',
    type: 'removed',
    fieldsChanged: [],
    before: {},
    after: {},
    source: partSource(country),
  };
}
