// Company names for name -> organisation number matching: the name history a registry keeps
// (company_names, migration 0022) and the candidate retrieval of POST /api/companies/match.
// Candidates are found by the words of the names, the distinct current names (company_name_keys,
// migration 0024) and the other names (company_names, 0038), for a batch of queries in one statement.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { PREPARED } from './engine/db.ts';
import type { Database } from './engine/schema.ts';

type NameKind = 'former' | 'parallel' | 'auxiliary';

interface NameHistoryEntry {
  name: string;
  kind: NameKind;
  /** YYYY-MM-DD */
  validFrom: string | null;
  /** YYYY-MM-DD; null while the name is in use (parallel and auxiliary names). */
  validTo: string | null;
}

interface CompanyNameHistory {
  orgNumber: string;
  names: NameHistoryEntry[];
}

/** One candidate company row, with the similarity that found it. */
export interface MatchCandidateRow {
  query: number;
  country: string;
  org_number: string;
  name: string;
  org_form_code: string | null;
  business_address_city: string | null;
  business_address_municipality: string | null;
  business_address_postal_code: string | null;
  postal_address_city: string | null;
  postal_address_postal_code: string | null;
  website: string | null;
  primary_domain: string | null;
  is_deleted: boolean;
  is_bankrupt: boolean;
  is_being_dissolved: boolean;
  is_in_forced_dissolution: boolean;
  status: string | null;
}

export interface StoredOtherName {
  country: string;
  org_number: string;
  name: string;
  kind: string;
  valid_to: string | null;
}

/**
 * One lookup for a query: the names holding all of `words` (space-separated store words, folded
 * as company_name_words folds them: domain/company-match foldedWords), ranked by trigram
 * similarity to `key` (the query's name without legal forms).
 */
export interface CandidateProbe {
  query: number;
  words: string;
  key: string;
  country: string | null;
  /**
   * Folded words one of which the name must hold besides `words` (the neighbours of a word the
   * query may have misspelt; `words` then holds its other words and may be empty).
   */
  alts?: string[];
}

/** Candidates per probe (current names) and per query (former names). */
const CANDIDATES_PER_QUERY = 15;
/**
 * Names a probe ranks at most (security issue 52, item 3): the names holding a common word, or
 * the former names near a long key, are taken in index order up to this many and only those are
 * ranked by similarity, so one probe's work is bounded whatever the words (a common word alone
 * held every tenth name of the register, and each was compared with the key).
 */
export const RANKED_PER_PROBE = 1000;

/** The candidate rows of one statement, and the time the store spent on it. */
export interface CandidateLookup {
  rows: MatchCandidateRow[];
  /** False when the statement ran over its statement time and was cancelled (no rows then). */
  complete: boolean;
  /** Milliseconds from holding the connection to the end of the statement. */
  ms: number;
}

/** PostgreSQL's query_canceled: statement_timeout fired. */
const QUERY_CANCELED = '57014';
const lower = (s: string) => s.normalize('NFC').toLowerCase();

/**
 * Adds the current names of these just-written companies to company_name_keys (the distinct
 * names candidate lookups rank, migration 0024). Sorted, so that two writers adding the same
 * names take their index locks in the same order.
 */
export async function addNameKeys(db: Kysely<Database> | Transaction<Database>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`${sql.raw(PREPARED)}
    INSERT INTO company_name_keys (country, name_norm, words)
    SELECT n.country, n.name_norm, company_name_words(n.name_norm)
    FROM (SELECT DISTINCT c.country, c.name_norm FROM companies c WHERE c.id = ANY(${ids}::bigint[])) n
    WHERE NOT EXISTS (SELECT 1 FROM company_name_keys k WHERE k.country = n.country AND k.name_norm = n.name_norm)
    ORDER BY n.country, n.name_norm
    ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * Where a word lookup finds names: the distinct current names (company_name_keys, migration
 * 0024), or the other names a register keeps (company_names, 0038), each with its folded words
 * under a GIN index, and how a found name leads to its companies.
 */
interface NameSource {
  from: RawBuilder<unknown>;
  /** The columns the ranked names carry to `companies`. */
  carried: RawBuilder<unknown>;
  companies: RawBuilder<unknown>;
}

const CURRENT_NAMES: NameSource = {
  from: sql`company_name_keys k`,
  carried: sql`k.country, k.name_norm`,
  companies: sql`c.country = k.country AND c.name_norm COLLATE "C" = k.name_norm COLLATE "C"`,
};

const OTHER_NAMES: NameSource = {
  from: sql`company_names k`,
  carried: sql`k.country, k.name_norm, k.org_number`,
  companies: sql`c.country = k.country AND c.org_number = k.org_number`,
};

/**
 * One kind of word lookup: for each probe `when` selects, the CANDIDATES_PER_QUERY names of
 * `source` that `holds` finds (of the first RANKED_PER_PROBE), most similar to the probe's key
 * first, then the companies bearing them (the same number at most, best name first).
 */
function wordLookup(source: NameSource, holds: RawBuilder<unknown>, when: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    SELECT p.query, h.id FROM p CROSS JOIN LATERAL (
      SELECT c.id FROM (
        SELECT ${source.carried}, similarity(k.name_norm, p.key) AS sim FROM (
          SELECT ${source.carried} FROM ${source.from}
          WHERE ${holds} AND (p.country IS NULL OR k.country = p.country)
          LIMIT ${sql.lit(RANKED_PER_PROBE)}
        ) k
        ORDER BY sim DESC, k.name_norm
        LIMIT ${sql.lit(CANDIDATES_PER_QUERY)}
      ) k
      JOIN companies c ON ${source.companies}
      ORDER BY k.sim DESC, c.id
      LIMIT ${sql.lit(CANDIDATES_PER_QUERY)}
    ) h WHERE ${when}`;
}

/**
 * The three word lookups of one name source: all the probe's words; a misspelt word's
 * neighbours and all the other words; a misspelt word's neighbours alone. All are GIN
 * conditions; a probe without other words has its own branch, because an empty @> array would
 * make the index scan every entry.
 */
function wordLookups(source: NameSource): RawBuilder<unknown> {
  return sql`
    ${wordLookup(source, sql`k.words @> string_to_array(p.words, ' ')`, sql`p.alts IS NULL`)}
    UNION
    ${wordLookup(
      source,
      sql`k.words && string_to_array(p.alts, ' ') AND k.words @> string_to_array(p.words, ' ')`,
      sql`p.alts IS NOT NULL AND p.words <> ''`,
    )}
    UNION
    ${wordLookup(source, sql`k.words && string_to_array(p.alts, ' ')`, sql`p.alts IS NOT NULL AND p.words = ''`)}`;
}

export function createCompanyNameRepository(db: Kysely<Database>) {
  return {
    /**
     * Replaces the name history `source` gave for these companies of `country` (companies not
     * listed keep theirs). The writer of a source calls this after writing the companies; a
     * company listed with no names has its names from that source removed.
     */
    async replaceHistory(
      country: string,
      source: string,
      companies: CompanyNameHistory[],
      trx?: Transaction<Database>,
    ): Promise<void> {
      if (companies.length === 0) return;
      const run = async (t: Kysely<Database>) => {
        await t
          .deleteFrom('company_names')
          .where('country', '=', country)
          .where('source', '=', source)
          .where(
            'org_number',
            'in',
            companies.map((c) => c.orgNumber),
          )
          .execute();
        const seen = new Set<string>();
        const rows = companies.flatMap((c) =>
          c.names
            .filter((n) => n.name.trim() !== '')
            .map((n) => ({
              country,
              org_number: c.orgNumber,
              name: n.name.trim(),
              name_norm: lower(n.name.trim()),
              kind: n.kind,
              valid_from: n.validFrom,
              valid_to: n.validTo,
              source,
            }))
            .filter((r) => {
              const k = `${r.org_number}\u0000${r.kind}\u0000${r.name_norm}`;
              return seen.has(k) ? false : (seen.add(k), true);
            }),
        );
        for (let i = 0; i < rows.length; i += 1000)
          await t
            .insertInto('company_names')
            .values(rows.slice(i, i + 1000))
            .execute();
      };
      if (trx) await run(trx);
      else await db.transaction().execute(run);
    },

    /** Every stored other name of these companies. */
    async namesOf(companies: { country: string; orgNumber: string }[]): Promise<StoredOtherName[]> {
      if (companies.length === 0) return [];
      const r = await sql<StoredOtherName>`
        SELECT n.country, n.org_number, n.name, n.kind, to_char(n.valid_to, 'YYYY-MM-DD') AS valid_to
        FROM company_names n
        JOIN unnest(${companies.map((c) => c.country)}::text[], ${companies.map((c) => c.orgNumber)}::text[])
          AS k(country, org_number) ON k.country = n.country AND k.org_number = n.org_number
        ORDER BY n.country, n.org_number, n.valid_to DESC NULLS FIRST, n.id`.execute(db);
      return r.rows;
    },

    /**
     * Candidate companies for each query (its index in `query`): the companies bearing the names
     * that hold all the words of one of its probes (company_name_keys and its GIN word index,
     * migration 0024) or the other names a register keeps (company_names, the same words, 0038),
     * the most similar first.
     * One transaction, one statement, cancelled after `timeoutMs` (SET LOCAL statement_timeout;
     * PostgreSQL only: PGlite has no timer to cancel a statement with, so there the bound is the
     * work each probe may do, RANKED_PER_PROBE, and the probes a caller puts in one statement).
     */
    async candidates(probes: CandidateProbe[], opts: { timeoutMs: number }): Promise<CandidateLookup> {
      const used = probes.filter((p) => p.words.trim() !== '' || (p.alts?.length ?? 0) > 0);
      if (used.length === 0) return { rows: [], complete: true, ms: 0 };
      let started: number | undefined;
      const ms = () => (started === undefined ? 0 : performance.now() - started);
      try {
        const rows = await db.transaction().execute((trx) => {
          started = performance.now();
          return lookUp(trx, used, opts.timeoutMs);
        });
        return { rows, complete: true, ms: ms() };
      } catch (err) {
        if ((err as { code?: string }).code === QUERY_CANCELED) return { rows: [], complete: false, ms: ms() };
        throw err;
      }
    },
  };
}

/** The candidate statement of `candidates`, in its transaction. */
async function lookUp(trx: Transaction<Database>, used: CandidateProbe[], timeoutMs: number) {
  const timeout = String(Math.max(1, Math.trunc(timeoutMs)));
  // The generic plan: PostgreSQL kept planning each statement afresh, as its estimate of the
  // generic plan (arrays of unknown length) was higher, though the plan is the same.
  await sql`SELECT set_config('statement_timeout', ${timeout}, true), set_config('plan_cache_mode', 'force_generic_plan', true)`.execute(
    trx,
  );
  // Prepared, with literal limits: planning this statement's six lateral lookups took as long
  // as running them (3.2 ms of 7.9 a statement on the Norwegian bench store, BENCHMARKS.md
  // "Substrings on a bounded name walk, the match statement's plan…"); the probes are arrays,
  // so one plan serves every batch.
  const r = await sql<MatchCandidateRow>`${sql.raw(PREPARED)}
    WITH p AS (
      SELECT query, words, key, country, alts
      FROM unnest(${used.map((p) => p.query)}::int[], ${used.map((p) => p.words)}::text[],
                  ${used.map((p) => lower(p.key))}::text[], ${used.map((p) => p.country)}::text[],
                  ${used.map((p) => (p.alts?.length ? p.alts.join(' ') : null))}::text[])
        AS u(query, words, key, country, alts)
    ),
    hits AS (
      ${wordLookups(CURRENT_NAMES)}
      UNION
      ${wordLookups(OTHER_NAMES)}
    )
    SELECT hits.query, c.country, c.org_number, c.name, c.org_form_code,
           c.business_address_city, c.business_address_municipality, c.business_address_postal_code,
           c.postal_address_city, c.postal_address_postal_code, c.website, c.primary_domain,
           c.is_deleted, c.is_bankrupt, c.is_being_dissolved, c.is_in_forced_dissolution, c.status
    FROM hits JOIN companies c ON c.id = hits.id
    ORDER BY hits.query, c.id`.execute(trx);
  return r.rows;
}

export type CompanyNameRepository = ReturnType<typeof createCompanyNameRepository>;
