// Events of per-company records beside the core (licences, inspections, procurement notices):
// the stored monitored values of the records a batch touches, read in the batch's
// transaction before it writes, and the append of what changed. The diff itself is pure
// (domain/record-events.ts); appendEvents keeps the seq gapless (events.ts).
import { sql, type RawBuilder } from 'kysely';
import type { NewEvent } from '../../domain/company-events.ts';
import { recordEvent, type FieldValue, type RecordChange } from '../../domain/record-events.ts';
import type { Db } from '../engine/db-type.ts';
import { appendEvents } from './event-append.ts';

export type RecordValues = Record<string, FieldValue> & { orgNumber: string | null };

/**
 * Stored records by key. `select` names the monitored values (as the events carry them) and
 * `orgNumber`; `where` picks the records by an indexed column.
 */
export async function storedRecords(
  db: Db,
  from: string,
  key: string,
  select: string,
  where: RawBuilder<unknown>,
): Promise<Map<string, RecordValues>> {
  const res = await sql<RecordValues & { key: string }>`SELECT ${sql.raw(key)} AS key, ${sql.raw(select)}
    FROM ${sql.raw(from)} WHERE ${where}`.execute(db);
  return new Map(res.rows.map(({ key: k, ...r }) => [k, r as RecordValues]));
}

/** Appends the events of the changes (records without an org number or a monitored change raise none). */
export async function appendRecordEvents(db: Db, changes: RecordChange[]): Promise<number> {
  const events = changes
    .filter((c) => c.orgNumber)
    .map(recordEvent)
    .filter((e): e is NewEvent => e !== null);
  await appendEvents(db, events);
  return events.length;
}
