// `ownership` events of a shareholder import, computed in the publishing transaction: one event
// per company and pair of consecutive years it has rows in, listing exactly what
// GET /api/companies/{orgNumber}/ownership-changes lists for that pair (with persons hidden):
// the owners that entered, left, rose or fell by 5 points or more, and a new largest owner
// (domain/ownership-changes.ts). Publishing year Y makes new pairs (the previous year → Y,
// Y → the next year) for the companies in Y; an event is appended for a pair whose change is not
// empty and differs from what the same pair gave before this import. Re-importing the same file
// therefore appends nothing, and a first import of the only year has no pairs at all.
import { sql } from 'kysely';
import { SOURCE } from '../../domain/company.ts';
import type { NewEvent } from '../../domain/company-events.ts';
import {
  ownershipChange,
  ownershipChangeEvent,
  type OwnershipChange,
  type YearOwner,
} from '../../domain/ownership-changes.ts';
import type { Db } from '../engine/db-type.ts';
import { appendEvents } from './event-append.ts';

/**
 * The direct owners of each company in the run named beside it, persons included (the
 * ownership-chain repository's, in the same transaction; passed in, as this wing stands on the
 * engine alone).
 */
export type HoldersOfRuns = (
  pairs: { orgNumber: string; runId: number }[],
) => Promise<(YearOwner & { investee: string; runId: number })[]>;

/** Companies compared per round (their holders in up to four runs are in memory at once). */
const CHUNK = 2_000;
/** Events appended per statement (a new year may change many companies). */
const APPEND_CHUNK = 5_000;

export interface PublishedYear {
  year: number;
  /** The run readers saw for the year before this import; null for a new year. */
  oldRun: number | null;
  /** The run this import publishes. */
  newRun: number;
}

interface Pair {
  from: { year: number; run: number };
  to: { year: number; run: number };
}

/** The consecutive pairs around `year` of one company, given the runs it has rows in. */
function pairsAround(year: number, others: { year: number; run: number }[], run: number | null): Pair[] {
  const prev = others.filter((o) => o.year < year).sort((a, b) => b.year - a.year)[0];
  const next = others.filter((o) => o.year > year).sort((a, b) => a.year - b.year)[0];
  if (run === null) return prev && next ? [{ from: prev, to: next }] : [];
  const here = { year, run };
  return [...(prev ? [{ from: prev, to: here }] : []), ...(next ? [{ from: here, to: next }] : [])];
}

/** Appends the events of publishing `p` (call after shareholder_years points the year at newRun). Returns how many. */
export async function appendOwnershipEvents(db: Db, p: PublishedYear, holdersOfRuns: HoldersOfRuns): Promise<number> {
  if (p.oldRun === p.newRun) return 0;
  const years = await sql<{ year: number; run_id: number }>`
    SELECT year, run_id FROM shareholder_years WHERE year <> ${p.year}`.execute(db);
  if (!years.rows.length) return 0; // one year only: there is nothing to compare
  const runs = [p.newRun, ...(p.oldRun === null ? [] : [p.oldRun])];
  const all: NewEvent[] = [];
  let last = '';
  for (;;) {
    const chunk = (
      await sql<{ org_number: string }>`
        SELECT DISTINCT org_number FROM shareholdings
        WHERE run_id = ANY(${runs}::bigint[]) AND org_number > ${last}
        ORDER BY org_number LIMIT ${CHUNK}`.execute(db)
    ).rows.map((r) => r.org_number);
    if (!chunk.length) break;
    last = chunk[chunk.length - 1];
    // Which runs each company has rows in: the other years' and this year's old and new.
    const present = await sql<{ org_number: string; year: number; run_id: number }>`
      SELECT s.org_number, y.year, y.run_id
      FROM (SELECT year, run_id FROM shareholder_years WHERE year <> ${p.year}
            UNION ALL SELECT ${p.year}, r FROM unnest(${runs}::bigint[]) AS r) y
      CROSS JOIN LATERAL (
        SELECT DISTINCT s.org_number FROM shareholdings s
        WHERE s.run_id = y.run_id AND s.org_number = ANY(${chunk}::text[])
      ) s`.execute(db);
    const byCompany = new Map<string, { others: { year: number; run: number }[]; runs: Set<number> }>();
    for (const r of present.rows) {
      let e = byCompany.get(r.org_number);
      if (!e) byCompany.set(r.org_number, (e = { others: [], runs: new Set() }));
      const run = Number(r.run_id);
      if (r.year === p.year) e.runs.add(run);
      else e.others.push({ year: r.year, run });
    }
    const work: { org: string; now: Pair; then: Pair | undefined }[] = [];
    for (const [org, e] of byCompany) {
      const now = pairsAround(p.year, e.others, e.runs.has(p.newRun) ? p.newRun : null);
      const then = pairsAround(p.year, e.others, p.oldRun !== null && e.runs.has(p.oldRun) ? p.oldRun : null);
      for (const pair of now)
        work.push({
          org,
          now: pair,
          then: then.find((t) => t.from.year === pair.from.year && t.to.year === pair.to.year),
        });
    }
    if (!work.length) continue;
    const wanted = new Map<string, { orgNumber: string; runId: number }>();
    for (const w of work)
      for (const side of [w.now, w.then])
        for (const end of side ? [side.from, side.to] : [])
          wanted.set(`${w.org}|${end.run}`, { orgNumber: w.org, runId: end.run });
    // Persons are loaded (the largest owner may be one) and hidden by the change itself.
    const held = new Map<string, YearOwner[]>();
    for (const h of await holdersOfRuns([...wanted.values()])) {
      const k = `${h.investee}|${h.runId}`;
      held.set(k, [...(held.get(k) ?? []), h]);
    }
    const changeOf = (org: string, pair: Pair): OwnershipChange =>
      ownershipChange(
        pair.from.year,
        pair.to.year,
        held.get(`${org}|${pair.from.run}`) ?? [],
        held.get(`${org}|${pair.to.run}`) ?? [],
        false,
      );
    const events: NewEvent[] = [];
    for (const w of work) {
      const change = changeOf(w.org, w.now);
      if (w.then && JSON.stringify(changeOf(w.org, w.then)) === JSON.stringify(change)) continue;
      const event = ownershipChangeEvent(w.org, change, SOURCE.aksjonaer);
      if (event) events.push(event);
    }
    all.push(...events);
  }
  // Appended after all the reading: the append takes the event sequence's row lock to commit.
  for (let i = 0; i < all.length; i += APPEND_CHUNK) await appendEvents(db, all.slice(i, i + APPEND_CHUNK));
  return all.length;
}
