// Events of the records a company holds beside its core: a licence, an inspection, a
// procurement notice, a screening match. Each record is named in the field paths
// (`licences.SALG:123.validTo`), so one company's changes to several records stay apart and an
// event still holds only the fields that changed. Pure: the store reads the stored values, feeds
// them here with the incoming ones, and appends what comes back.
import type { EventCategory, FieldValues, NewEvent } from './company-events.ts';

/** Event sources of the non-registry ingests (the registries use SOURCE in company.ts). */
export const EVENT_SOURCE = {
  licences: 'Helsedirektoratet (TBR)',
  inspections: 'Mattilsynet',
  doffin: 'Doffin',
  ted: 'TED',
  screening: 'Nordic Company Data screening',
} as const;

export type FieldValue = FieldValues[string];

/** The event types of one kind of record: a new one, a changed one, one that went. */
interface RecordTypes {
  added: string;
  changed: string;
  removed: string;
}

export interface RecordChange {
  country: string;
  orgNumber: string;
  category: EventCategory;
  source: string;
  /** The record's name in field paths, e.g. `licences.SALG:123`. */
  path: string;
  /** The monitored fields (API names); others raise no event. */
  fields: readonly string[];
  /** Null: the record is new. */
  before: Record<string, FieldValue> | null;
  /** Null: the record went. */
  after: Record<string, FieldValue> | null;
  types: RecordTypes;
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** One event for a record whose monitored fields changed (null when none did). */
export function recordEvent(c: RecordChange): NewEvent | null {
  const changed = c.fields.filter((f) => !same(c.before?.[f], c.after?.[f]));
  if (!changed.length) return null;
  const values = (side: Record<string, FieldValue> | null) =>
    Object.fromEntries(changed.map((f) => [`${c.path}.${f}`, side?.[f] ?? null]));
  return {
    country: c.country,
    orgNumber: c.orgNumber,
    category: c.category,
    type: c.before === null ? c.types.added : c.after === null ? c.types.removed : c.types.changed,
    fieldsChanged: changed.map((f) => `${c.path}.${f}`),
    before: values(c.before),
    after: values(c.after),
    source: c.source,
  };
}

/** A timestamp or date as events carry it (ISO text), whatever form the store or file gave. */
export function isoValue(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
}

/** A list entity a company's screening matched (its best score over the company's subjects). */
export interface ScreenedMatch {
  entityId: string;
  entityName: string;
  list: string;
  score: number;
}

const describeMatch = (m: ScreenedMatch) => `${m.entityName} (${m.list}, score ${m.score.toFixed(2)})`;

/**
 * One `screening` event for a company whose matched entities changed: each entity that appeared
 * or disappeared is a field `matches.<entityId>`; a score that moved raises none.
 */
export function screeningEvent(
  key: { country: string; orgNumber: string },
  before: ScreenedMatch[],
  after: ScreenedMatch[],
): NewEvent | null {
  const was = new Map(before.map((m) => [m.entityId, m]));
  const now = new Map(after.map((m) => [m.entityId, m]));
  const appeared = [...now.keys()].filter((id) => !was.has(id));
  const gone = [...was.keys()].filter((id) => !now.has(id));
  if (!appeared.length && !gone.length) return null;
  const ids = [...appeared, ...gone].sort();
  const side = (m: Map<string, ScreenedMatch>) =>
    Object.fromEntries(ids.map((id) => [`matches.${id}`, m.has(id) ? describeMatch(m.get(id)!) : null]));
  return {
    ...key,
    category: 'screening',
    type: !gone.length ? 'match_found' : !appeared.length ? 'match_cleared' : 'matches_changed',
    fieldsChanged: ids.map((id) => `matches.${id}`),
    before: side(was),
    after: side(now),
    source: EVENT_SOURCE.screening,
  };
}

/**
 * One `ownership` event for a company whose list of named holders changed (each holder as one
 * text: name, org number of an entity, stake); null when the lists are the same.
 */
export function ownersChangedEvent(
  key: { country: string; orgNumber: string },
  before: string[],
  after: string[],
  source: string,
): NewEvent | null {
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  return {
    ...key,
    category: 'ownership',
    type: 'owners_changed',
    fieldsChanged: ['owners'],
    before: { owners: before },
    after: { owners: after },
    source,
  };
}
