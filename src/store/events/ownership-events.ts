// `ownership` events of a shareholder import, computed in the publishing transaction:
// for every company in both the register that readers saw before and the one they see now, its
// holders of at least 5 % (name, org number for entities, stake to one decimal). A company whose
// list differs gets one event with the whole list before and after. Persons are named only: no
// birth year (the store keeps a year, never a date or national id; events keep neither).
import { sql } from 'kysely';
import { SOURCE } from '../../domain/company.ts';
import type { NewEvent } from '../../domain/company-events.ts';
import { ownersChangedEvent } from '../../domain/record-events.ts';
import type { Db } from '../engine/db-type.ts';
import { appendEvents } from './event-append.ts';

/** The stake from which a holder is named in an event. */
const OWNERSHIP_EVENT_PCT = 5;
/** Events appended per statement (a new year may change many companies). */
const CHUNK = 5_000;

/**
 * Appends the events between the runs `before` and `after` (the latest visible ones; nothing when
 * there was none before, a first import, or it is the same run). Returns how many.
 */
export async function appendOwnershipEvents(db: Db, before: number | null, after: number | null): Promise<number> {
  if (before === null || after === null || before === after) return 0;
  const res = await sql<{ org_number: string; before: string[] | null; after: string[] | null }>`
    WITH holders AS (
      SELECT run_id, org_number, max(holder_name) AS name, max(holder_org_number) AS org, sum(share_count) AS shares
      FROM shareholdings WHERE run_id IN (${before}::bigint, ${after}::bigint)
      GROUP BY run_id, org_number, holder_type, COALESCE(holder_org_number, ''), COALESCE(holder_name, ''), holder_birth_year),
    totals AS (SELECT run_id, org_number, sum(shares) AS total FROM holders GROUP BY run_id, org_number),
    major AS (
      SELECT h.run_id, h.org_number, array_agg(
          COALESCE(h.name, '?') || COALESCE(' (' || h.org || ')', '') || ': '
            || to_char(round(100.0 * h.shares / t.total, 1), 'FM990.0') || ' %'
          ORDER BY h.shares DESC, h.name, h.org) AS owners
      FROM holders h JOIN totals t ON t.run_id = h.run_id AND t.org_number = h.org_number
      WHERE t.total > 0 AND h.shares * 100 >= t.total * ${OWNERSHIP_EVENT_PCT}
      GROUP BY h.run_id, h.org_number)
    SELECT o.org_number, mb.owners AS before, ma.owners AS after
    FROM totals o JOIN totals n ON n.org_number = o.org_number AND n.run_id = ${after}::bigint
    LEFT JOIN major mb ON mb.run_id = o.run_id AND mb.org_number = o.org_number
    LEFT JOIN major ma ON ma.run_id = n.run_id AND ma.org_number = n.org_number
    WHERE o.run_id = ${before}::bigint AND mb.owners IS DISTINCT FROM ma.owners
    ORDER BY o.org_number`.execute(db);
  const events = res.rows
    .map((r) =>
      ownersChangedEvent({ country: 'NO', orgNumber: r.org_number }, r.before ?? [], r.after ?? [], SOURCE.aksjonaer),
    )
    .filter((e): e is NewEvent => e !== null);
  for (let i = 0; i < events.length; i += CHUNK) await appendEvents(db, events.slice(i, i + CHUNK));
  return events.length;
}
