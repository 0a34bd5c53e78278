// PEP/sanctions lists. An import stages its rows under its run id (invisible: readers only see
// runs that sanction_lists points at), then publish() points the list at the run in one
// statement: readers see the old list or the new one, never half of either. A delta stages
// its rows the same way and applyDelta() swaps them into the list's run in one transaction.
// Candidate retrieval is one GIN lookup on exact keys (sanction-keys.ts; see the migration).
import { sql, type Kysely } from 'kysely';
import type { NameKind, SanctionEntity, SanctionSchema } from '../domain/screening/types.ts';
import { matchKeys } from './screening-keys.ts';
import type { Database } from './engine/schema.ts';

/** Rows removed per statement when a run is discarded (keeps the embedded engine responsive). */
const DELETE_CHUNK = 20_000;

/** Candidates per subject: the README's bound, and what rankCandidates expects. */
const CANDIDATES_PER_SUBJECT = 50;

/** The published runs, as an array: `run_id = ANY(…)` whatever the planner knows. */
const VISIBLE = sql`ARRAY(SELECT run_id FROM sanction_lists)`;

const KINDS: Record<SanctionSchema, NameKind[]> = {
  Person: ['person'],
  Organization: ['organisation'],
  Company: ['organisation'],
  LegalEntity: ['person', 'organisation'],
};

export interface SanctionList {
  name: string;
  format: string;
  version: string | null;
  entityCount: number;
  /** Last successful full import or delta. */
  syncedAt: Date;
}

/** A stored entity as the matcher needs it, with the list it is on. */
export interface StoredSanctionEntity {
  list: string;
  id: string;
  schema: SanctionSchema;
  name: string;
  aliases: string[];
  birthDates: string[];
  countries: string[];
  topics: string[];
  datasets: string[];
  /** Identifies this version of the entity (for caches): the run that wrote it + its id. */
  versionKey: string;
}

interface CandidateQuery {
  kind: NameKind;
  /** Subject name: its keys are computed like the listed names'. */
  name: string;
}

interface Candidate {
  /** Index of the subject in the query list. */
  subject: number;
  entity: StoredSanctionEntity;
}

interface NameRow {
  entity_id: string;
  kind: NameKind;
  trigram_key: string;
  match_keys: string[];
}

/** One row per distinct key of the entity's matchable names (primary + strong aliases) and kind. */
function nameRows(e: SanctionEntity): NameRow[] {
  const rows: NameRow[] = [];
  for (const kind of KINDS[e.schema] ?? []) {
    const seen = new Set<string>();
    for (const name of [e.name, ...e.aliases]) {
      const keys = matchKeys(name, kind);
      if (keys.keys.length === 0) continue; // nothing to look it up by (no letters)
      const k = `${keys.trigramKey}|${keys.keys.join(',')}`;
      if (seen.has(k)) continue;
      seen.add(k);
      rows.push({ entity_id: e.id, kind, trigram_key: keys.trigramKey, match_keys: keys.keys });
    }
  }
  return rows;
}

const entityJson = (e: SanctionEntity) => ({
  entity_id: e.id,
  schema: e.schema,
  name: e.name,
  aliases: e.aliases,
  weak_aliases: e.weakAliases,
  birth_dates: e.birthDates,
  countries: e.countries,
  topics: e.topics,
  datasets: e.datasets,
  last_change: e.lastChange ?? null,
});

type Db = Kysely<Database>;

async function insertEntities(
  db: Db,
  runId: number,
  entities: SanctionEntity[],
  onConflict: 'nothing' | 'error',
): Promise<Set<string>> {
  const res = await sql<{ entity_id: string }>`
    INSERT INTO sanction_entities (run_id, entity_id, written_by, schema, name, aliases, weak_aliases, birth_dates, countries, topics, datasets, last_change)
    SELECT ${runId}, x.entity_id, ${runId}, x.schema, x.name, x.aliases, x.weak_aliases, x.birth_dates, x.countries, x.topics, x.datasets, x.last_change
    FROM jsonb_to_recordset(${JSON.stringify(entities.map(entityJson))}::jsonb) AS x(entity_id text, schema text, name text, aliases text[],
      weak_aliases text[], birth_dates text[], countries text[], topics text[], datasets text[], last_change text)
    ${onConflict === 'nothing' ? sql`ON CONFLICT (run_id, entity_id) DO NOTHING` : sql``}
    RETURNING entity_id`.execute(db);
  return new Set(res.rows.map((r) => r.entity_id));
}

async function insertNames(db: Db, runId: number, rows: NameRow[]): Promise<void> {
  if (!rows.length) return;
  await sql`
    INSERT INTO sanction_names (run_id, entity_id, kind, trigram_key, match_keys)
    SELECT ${runId}, x.entity_id, x.kind, x.trigram_key, x.match_keys
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(entity_id text, kind text, trigram_key text, match_keys text[])`.execute(
    db,
  );
}

export function createScreeningRepository(db: Db) {
  async function deleteChunked(
    table: 'sanction_names' | 'sanction_entities' | 'sanction_delta_ids',
    runId: number,
  ): Promise<number> {
    let removed = 0;
    for (;;) {
      const r = await sql`DELETE FROM ${sql.table(table)} WHERE ctid = ANY(ARRAY(
          SELECT ctid FROM ${sql.table(table)} WHERE run_id = ${runId} LIMIT ${DELETE_CHUNK}))`.execute(db);
      const n = Number(r.numAffectedRows ?? 0);
      removed += n;
      if (n < DELETE_CHUNK) return removed;
    }
  }

  async function discardRun(runId: number): Promise<number> {
    await deleteChunked('sanction_names', runId);
    await deleteChunked('sanction_delta_ids', runId);
    return deleteChunked('sanction_entities', runId);
  }

  return {
    discardRun,

    /** Staged rows that earlier, killed or failed runs of `source` left behind. */
    async discardLeftovers(runId: number, source: string): Promise<number> {
      const runs = await sql<{ id: number }>`
        SELECT o.id FROM sync_runs o
        WHERE o.source = ${source} AND o.id <> ${runId}
          AND NOT EXISTS (SELECT 1 FROM sanction_lists l WHERE l.run_id = o.id)
          AND (EXISTS (SELECT 1 FROM sanction_entities e WHERE e.run_id = o.id)
               OR EXISTS (SELECT 1 FROM sanction_delta_ids d WHERE d.run_id = o.id))`.execute(db);
      let removed = 0;
      for (const { id } of runs.rows) removed += await discardRun(id);
      return removed;
    },

    /**
     * Stages entities of a full import under `runId`. An id seen before in the same import is
     * ignored (the first occurrence wins). Returns how many were new.
     */
    async stage(runId: number, entities: SanctionEntity[]): Promise<number> {
      if (!entities.length) return 0;
      const inserted = await insertEntities(db, runId, entities, 'nothing');
      const first = new Set<string>();
      const names = entities.filter((e) => inserted.has(e.id) && !first.has(e.id) && first.add(e.id)).flatMap(nameRows);
      await insertNames(db, runId, names);
      return inserted.size;
    },

    /**
     * Stages one batch of delta records under `runId`: every id is remembered (its current
     * version goes when the delta is applied); the latest ADD/MOD version is staged, a later
     * DEL unstages it. Records must be in file order.
     */
    async stageDelta(runId: number, records: { id: string; entity?: SanctionEntity }[]): Promise<void> {
      if (!records.length) return;
      const last = new Map<string, SanctionEntity | undefined>();
      for (const r of records) {
        last.delete(r.id); // keep Map order = order of the final operation
        last.set(r.id, r.entity);
      }
      const ids = [...last.keys()];
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO sanction_delta_ids (run_id, entity_id) SELECT ${runId}, unnest(${ids}::text[]) ON CONFLICT DO NOTHING`.execute(
          trx,
        );
        await sql`DELETE FROM sanction_names WHERE run_id = ${runId} AND entity_id = ANY(${ids}::text[])`.execute(trx);
        await sql`DELETE FROM sanction_entities WHERE run_id = ${runId} AND entity_id = ANY(${ids}::text[])`.execute(
          trx,
        );
        const staged = [...last.values()].filter((e): e is SanctionEntity => e !== undefined);
        if (staged.length) {
          await insertEntities(trx, runId, staged, 'error');
          await insertNames(trx, runId, staged.flatMap(nameRows));
        }
      });
    },

    /** Makes `runId` the visible import of `list`; returns the run it replaced (discard it next). */
    async publish(
      list: string,
      runId: number,
      info: { format: string; version: string | null; entityCount: number },
    ): Promise<{ previousRunId: number | null }> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('sanction_lists')
          .select('run_id')
          .where('name', '=', list)
          .forUpdate()
          .executeTakeFirst();
        await sql`INSERT INTO sanction_lists (name, run_id, format, version, entity_count, synced_at)
          VALUES (${list}, ${runId}, ${info.format}, ${info.version}, ${info.entityCount}, now())
          ON CONFLICT (name) DO UPDATE SET run_id = EXCLUDED.run_id, format = EXCLUDED.format, version = EXCLUDED.version,
            entity_count = EXCLUDED.entity_count, synced_at = EXCLUDED.synced_at`.execute(trx);
        return { previousRunId: before && before.run_id !== runId ? before.run_id : null };
      });
    },

    /**
     * Applies the delta staged under `deltaRunId` to the list, in one transaction: the list's
     * current version of every touched id goes, the staged versions move into the list's run.
     */
    async applyDelta(
      list: string,
      deltaRunId: number,
      version: string | null,
    ): Promise<{ removed: number; written: number; entityCount: number }> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('sanction_lists')
          .select('run_id')
          .where('name', '=', list)
          .forUpdate()
          .executeTakeFirst();
        if (!current)
          throw new Error(`the delta is for list "${list}", which has not been loaded: load the full list first`);
        const runId = current.run_id;
        const touched = sql`SELECT entity_id FROM sanction_delta_ids WHERE run_id = ${deltaRunId}`;
        await sql`DELETE FROM sanction_names WHERE run_id = ${runId} AND entity_id IN (${touched})`.execute(trx);
        const removed =
          await sql`DELETE FROM sanction_entities WHERE run_id = ${runId} AND entity_id IN (${touched})`.execute(trx);
        await sql`UPDATE sanction_names SET run_id = ${runId} WHERE run_id = ${deltaRunId}`.execute(trx);
        const written = await sql`UPDATE sanction_entities SET run_id = ${runId} WHERE run_id = ${deltaRunId}`.execute(
          trx,
        );
        await sql`DELETE FROM sanction_delta_ids WHERE run_id = ${deltaRunId}`.execute(trx);
        const count = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM sanction_entities WHERE run_id = ${runId}`.execute(trx);
        const entityCount = count.rows[0].n;
        await sql`UPDATE sanction_lists SET entity_count = ${entityCount}, synced_at = now(), version = COALESCE(${version}, version)
          WHERE name = ${list}`.execute(trx);
        return {
          removed: Number(removed.numAffectedRows ?? 0),
          written: Number(written.numAffectedRows ?? 0),
          entityCount,
        };
      });
    },

    async lists(): Promise<SanctionList[]> {
      const rows = await db
        .selectFrom('sanction_lists')
        .select(['name', 'format', 'version', 'entity_count', 'synced_at'])
        .orderBy('name')
        .execute();
      return rows.map((r) => ({
        name: r.name,
        format: r.format,
        version: r.version,
        entityCount: r.entity_count,
        syncedAt: new Date(r.synced_at),
      }));
    },

    /**
     * Up to CANDIDATES_PER_SUBJECT entities per subject from the visible lists, found through
     * the key index (one statement for every subject), most similar spelling first.
     */
    async candidates(subjects: CandidateQuery[]): Promise<Candidate[]> {
      if (!subjects.length) return [];
      const input = JSON.stringify(
        subjects.map((s, i) => {
          const k = matchKeys(s.name, s.kind);
          return { i, kind: s.kind, tkey: k.trigramKey, keys: k.keys };
        }),
      );
      const res = await sql<{
        i: number;
        list: string;
        entity_id: string;
        written_by: number;
        schema: SanctionSchema;
        name: string;
        aliases: string[];
        birth_dates: string[];
        countries: string[];
        topics: string[];
        datasets: string[];
      }>`
        SELECT c.i, l.name AS list, e.entity_id, e.written_by, e.schema, e.name, e.aliases, e.birth_dates, e.countries, e.topics, e.datasets
        FROM jsonb_to_recordset(${input}::jsonb) AS s(i int, kind text, tkey text, keys text[])
        CROSS JOIN LATERAL (
          SELECT s.i, n.run_id, n.entity_id, max(similarity(n.trigram_key, s.tkey)) AS sim
          FROM sanction_names n
          WHERE n.match_keys && s.keys AND n.kind = s.kind AND n.run_id = ANY(${VISIBLE})
          GROUP BY n.run_id, n.entity_id
          ORDER BY sim DESC, n.entity_id
          LIMIT ${CANDIDATES_PER_SUBJECT}
        ) c
        JOIN sanction_entities e ON e.run_id = c.run_id AND e.entity_id = c.entity_id
        JOIN sanction_lists l ON l.run_id = c.run_id`.execute(db);
      return res.rows.map((r) => ({
        subject: r.i,
        entity: {
          list: r.list,
          id: r.entity_id,
          schema: r.schema,
          name: r.name,
          aliases: r.aliases,
          birthDates: r.birth_dates,
          countries: r.countries,
          topics: r.topics,
          datasets: r.datasets,
          versionKey: `${r.written_by}:${r.entity_id}`,
        },
      }));
    },

    /**
     * Merges the GIN pending lists (a bulk load leaves long ones, and lookups read them
     * sequentially until a vacuum merges them; the embedded engine never vacuums by itself).
     */
    async cleanIndexes(): Promise<void> {
      await sql`SELECT gin_clean_pending_list('sanction_names_keys'::regclass)`.execute(db);
    },
  };
}

export type ScreeningRepository = ReturnType<typeof createScreeningRepository>;
