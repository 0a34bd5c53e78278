// The core events of a batch write, made by the database inside the upsert's
// own statement. A data-modifying WITH item joins each staged row (`x`) to the stored company
// (`o`): all parts of one statement read the same snapshot, so `o` is still the row before the
// upsert. It writes one row per changed category into a per-session staging table, and
// `appendEvents` (events.ts) numbers those rows as the transaction's last statement.
// What is monitored and how a change is typed is in domain/company-events.ts (CORE_BY_CATEGORY,
// STATUS_TYPES, CORE_EVENT_TYPE); this file only turns it into SQL.
// Why in SQL: when this process read the before-images, compared them and COPYed the events
// back, a sync that changed 100,000 companies moved some 55 MB over the wire and spent about 2 s
// of this process's CPU for it (BENCHMARKS.md, "Core events made in the upsert").
import { sql, type RawBuilder } from 'kysely';
import {
  CORE_BY_CATEGORY,
  CORE_EVENT_TYPE,
  STATUS_CHANGED,
  STATUS_TYPES,
  type EventCategory,
} from '../../domain/company-events.ts';
import { CORE_EVENT_STAGE, STAGED_COLUMN_LIST } from './event-append.ts';

/** A string constant of ours (field names, categories, types) as an SQL literal. */
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

type Columns = { field: string; column: string }[];

const differs = (column: string) => `o.${column} IS DISTINCT FROM x.${column}`;

/** The fields of `columns` for which `test` holds, in order, as a text[]. */
const fieldsWhere = (columns: Columns, test: (column: string) => string) =>
  `array_remove(ARRAY[${columns.map(({ field, column }) => `CASE WHEN ${test(column)} THEN ${lit(field)} END`).join(', ')}]::text[], NULL)`;

/**
 * The changed fields of `columns` with their values in `alias` (o: before, x: after), as a JSON
 * object written out as text: `json_build_object` looks up the type of every argument on every
 * call, which made it some 20 µs a company for the twelve address columns; this costs about 1.
 */
const values = (alias: 'o' | 'x', columns: Columns) => {
  const members = columns.map(
    ({ field, column }) =>
      `CASE WHEN ${differs(column)} THEN ${lit(`${JSON.stringify(field)}:`)} || coalesce(to_json(${alias}.${column})::text, 'null') END`,
  );
  return `('{' || concat_ws(',', ${members.join(', ')}) || '}')::json`;
};

/** The event type of a change in `category` (STATUS_TYPES for status, read from the flags). */
function typeOf(category: EventCategory): string {
  if (category !== 'status') return lit(CORE_EVENT_TYPE[category]!);
  const rose = (c: string) => `(o.${c} IS NOT TRUE AND x.${c} IS TRUE)`;
  const fell = (c: string) => `(o.${c} IS TRUE AND x.${c} IS NOT TRUE)`;
  const rules = STATUS_TYPES.map(
    (r) => `WHEN ${[...(r.rose ?? []).map(rose), ...(r.fell ?? []).map(fell)].join(' OR ')} THEN ${lit(r.type)}`,
  );
  return `CASE ${rules.join(' ')} ELSE ${lit(STATUS_CHANGED)} END`;
}

/**
 * One SELECT per category, kept only when one of its columns changed: its position, name, type,
 * changed fields, before and after. (A VALUES list here would be as short, but PostgreSQL builds
 * the expressions of a lateral VALUES afresh for every company: 70 µs each, most of the cost.)
 */
const categorySelect = ({ category, columns }: { category: EventCategory; columns: Columns }, k: number) =>
  `SELECT ${k} AS k, ${lit(category)} AS category, ${typeOf(category)} AS type,
    ${fieldsWhere(columns, differs)} AS fields_changed, ${values('o', columns)} AS before, ${values('x', columns)} AS after
    WHERE ${columns.map(({ column }) => differs(column)).join(' OR ')}`;

const CATEGORY_SELECTS = sql.raw(CORE_BY_CATEGORY.map(categorySelect).join('\nUNION ALL '));
const CATEGORIES = CORE_BY_CATEGORY.length;

/**
 * The WITH item that stages the core events of the companies in `x` (the statement's staged
 * rows: the monitored columns as the store will hold them, `country`, `org_number`, `source` and
 * `ord`, the row's place in the batch). New companies raise none. Events are ordered by the row's
 * place, then by category (CORE_BY_CATEGORY).
 */
export const stageCoreEvents = (): RawBuilder<unknown> => sql`INSERT INTO ${sql.raw(CORE_EVENT_STAGE)}
    (ord, ${sql.raw(STAGED_COLUMN_LIST)})
  SELECT x.ord * ${sql.lit(CATEGORIES)} + e.k, x.org_number, x.country, e.category, e.type, e.fields_changed,
    e.before, e.after, x.source
  FROM x JOIN companies o ON o.country = x.country AND o.org_number = x.org_number
  CROSS JOIN LATERAL (${CATEGORY_SELECTS}) AS e`;
