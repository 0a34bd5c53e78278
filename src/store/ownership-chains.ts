// The owners of many companies at once, for the ultimate-owner walk (one query per layer of the
// walk) and the year-by-year ownership changes. Norway (Aksjonærregisteret): a holder's share is
// its shares summed over every class, divided by all the company's shares less the company's own
// (treasury) shares; each company uses one year, the year asked for or, when it has no rows
// then, its latest earlier year. Denmark (CVR): the band each legal owner's share is registered in.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { HoldingEdge } from '../domain/ownership-holdings.ts';
import type { NodeOwners, OwnerEdge } from '../domain/ownership-walk.ts';
import type { Database } from './engine/schema.ts';

/**
 * The share base of each (company, year) in the CTE `r` (its register rows): every class's
 * total (the register's, else the sum of its positions) less the company's own shares.
 */
const BASES = sql`
    class_totals AS (
      SELECT run_id, org_number, year, share_class, COALESCE(NULLIF(max(total_shares), 0), sum(share_count)) AS total
      FROM r GROUP BY run_id, org_number, year, share_class
    ),
    treasury AS (
      SELECT run_id, org_number, sum(share_count) AS shares FROM r WHERE holder_org_number = org_number
      GROUP BY run_id, org_number
    ),
    bases AS (
      SELECT t.run_id, t.org_number, t.year, sum(t.total) - COALESCE(max(tr.shares), 0) AS base
      FROM class_totals t LEFT JOIN treasury tr ON tr.run_id = t.run_id AND tr.org_number = t.org_number
      GROUP BY t.run_id, t.org_number, t.year
    )`;

/** Per company the newest year at most `upTo` in which it has rows (one index probe per year). */
const newestYear = (orgColumn: RawBuilder<unknown>, upTo: RawBuilder<unknown>) => sql`(
  SELECT max(y.year) FROM shareholder_years y
  WHERE y.year <= ${upTo}
    AND EXISTS (SELECT 1 FROM shareholdings s WHERE s.run_id = y.run_id AND s.org_number = ${orgColumn}))`;

interface HolderRow {
  run_id: number | string;
  org_number: string;
  year: number;
  company_name: string | null;
  holder_type: OwnerEdge['kind'];
  holder_org_number: string | null;
  holder_name: string | null;
  holder_birth_year: number | null;
  country_code: string | null;
  org_form_code: string | null;
  share_classes: string | null;
  shares: string | number;
  base: string | number;
}

/** One direct owner of one company in one year, with its shares and the company's base. */
export interface YearHolder extends OwnerEdge {
  /** The company held. */
  investee: string;
  year: number;
  /** The import the row comes from. */
  runId: number;
  companyName: string | null;
  shares: number;
  base: number;
}

/**
 * Holders of the (company, run) pairs `pick` yields (columns org_number, run_id). Persons are
 * summed into one nameless holder unless asked for, so their names never leave the store.
 */
async function holders(db: Kysely<Database>, pick: RawBuilder<unknown>, includePersons: boolean) {
  const personKey = includePersons
    ? sql`CASE WHEN s.holder_org_number IS NULL THEN s.holder_name END, CASE WHEN s.holder_org_number IS NULL THEN s.holder_birth_year END`
    : sql`CASE WHEN s.holder_type <> 'person' AND s.holder_org_number IS NULL THEN s.holder_name END`;
  const res = await sql<HolderRow>`
    WITH pick AS (${pick}),
    r AS (
      SELECT s.* FROM pick p JOIN shareholdings s ON s.run_id = p.run_id AND s.org_number = p.org_number
    ),
    ${BASES},
    h AS (
      SELECT s.run_id, s.org_number, s.year, s.holder_type, s.holder_org_number,
             ${includePersons ? sql`max(s.holder_name)` : sql`CASE WHEN s.holder_type = 'person' THEN NULL ELSE max(s.holder_name) END`} AS holder_name,
             ${includePersons ? sql`max(s.holder_birth_year)` : sql`NULL::integer`} AS holder_birth_year,
             max(s.country_code) AS country_code, max(s.company_name) AS company_name,
             string_agg(DISTINCT s.share_class, ', ') AS share_classes, sum(s.share_count) AS shares
      FROM r s
      WHERE s.holder_org_number IS DISTINCT FROM s.org_number
      GROUP BY s.run_id, s.org_number, s.year, s.holder_type, s.holder_org_number, ${personKey}
    )
    SELECT h.run_id, h.org_number, h.year, COALESCE(ci.name, h.company_name) AS company_name, h.holder_type, h.holder_org_number,
           COALESCE(ch.name, h.holder_name) AS holder_name, h.holder_birth_year, h.country_code, ch.org_form_code,
           h.share_classes, h.shares, b.base
    FROM h JOIN bases b ON b.run_id = h.run_id AND b.org_number = h.org_number
    LEFT JOIN companies ci ON ci.country = 'NO' AND ci.org_number = h.org_number
    LEFT JOIN companies ch ON ch.country = 'NO' AND ch.org_number = h.holder_org_number
    WHERE b.base > 0
    ORDER BY h.org_number, h.year, h.run_id, h.shares DESC, h.holder_org_number NULLS LAST, holder_name`.execute(db);
  return res.rows.map((r): YearHolder => ({
    investee: r.org_number,
    year: r.year,
    runId: Number(r.run_id),
    companyName: r.company_name,
    kind: r.holder_type,
    orgNumber: r.holder_org_number,
    name: r.holder_name,
    country: r.country_code,
    birthYear: r.holder_birth_year,
    orgFormCode: r.org_form_code,
    shareClass: r.share_classes,
    shares: Number(r.shares),
    base: Number(r.base),
    share: { low: Number(r.shares) / Number(r.base), high: Number(r.shares) / Number(r.base) },
  }));
}

/** Rows in the order the query gives them, as each company's owner list. */
function byCompany(rows: YearHolder[]): Map<string, NodeOwners> {
  const out = new Map<string, NodeOwners>();
  for (const r of rows) {
    let node = out.get(r.investee);
    if (!node) out.set(r.investee, (node = { name: r.companyName, year: r.year, edges: [] }));
    const { kind, orgNumber, name, country, birthYear, orgFormCode, shareClass, share } = r;
    node.edges.push({ kind, orgNumber, name, country, birthYear, orgFormCode, shareClass, share });
  }
  return out;
}

export function createOwnershipChainRepository(db: Kysely<Database>) {
  return {
    /** Norway: owners of each company in `year` (else its latest earlier year; the latest year when unset). */
    async norwegianOwners(
      orgNumbers: string[],
      opts: { year: number | undefined; includePersons: boolean },
    ): Promise<Map<string, NodeOwners>> {
      if (!orgNumbers.length) return new Map();
      const upTo =
        opts.year === undefined ? sql`(SELECT max(year) FROM shareholder_years)` : sql`${opts.year}::integer`;
      // A lateral probe per company, newest year first: a company with rows in the year asked
      // for costs one index probe (a join on the newest year's number evaluated it twice).
      const pick = sql`
        SELECT o.org_number, y.run_id FROM unnest(${orgNumbers}::text[]) AS o(org_number)
        CROSS JOIN LATERAL (
          SELECT y.run_id FROM shareholder_years y
          WHERE y.year <= ${upTo}
            AND EXISTS (SELECT 1 FROM shareholdings x WHERE x.run_id = y.run_id AND x.org_number = o.org_number)
          ORDER BY y.year DESC LIMIT 1
        ) y`;
      return byCompany(await holders(db, pick, opts.includePersons));
    },

    /**
     * Norway: the companies an ultimate-owner walk from `root` can load, in one recursive query:
     * the root and its company owners, layer by layer, below `maxDepth` layers (each company in
     * the year the walk reads it), at most `cap` of them. Loading their owners in one query then
     * spares the walk a round trip and a query plan per layer.
     */
    async norwegianTree(
      root: string,
      opts: { year: number | undefined; maxDepth: number; cap: number },
    ): Promise<string[]> {
      const upTo =
        opts.year === undefined ? sql`(SELECT max(year) FROM shareholder_years)` : sql`${opts.year}::integer`;
      const res = await sql<{ org_number: string }>`
        WITH RECURSIVE up(org_number, depth) AS (
          SELECT ${root}::text, 0
          UNION
          SELECT s.holder_org_number, u.depth + 1
          FROM up u
          CROSS JOIN LATERAL (
            SELECT y.run_id FROM shareholder_years y
            WHERE y.year <= ${upTo}
              AND EXISTS (SELECT 1 FROM shareholdings x WHERE x.run_id = y.run_id AND x.org_number = u.org_number)
            ORDER BY y.year DESC LIMIT 1
          ) y
          JOIN shareholdings s ON s.run_id = y.run_id AND s.org_number = u.org_number
          WHERE u.depth < ${opts.maxDepth - 1} AND s.holder_org_number IS NOT NULL
            AND s.holder_org_number <> s.org_number
        )
        SELECT org_number FROM up LIMIT ${opts.cap * 4}`.execute(db);
      // A plain LIMIT stops the recursion early (a DISTINCT would read all of it first); layers come in order.
      return [...new Set(res.rows.map((r) => r.org_number))].slice(0, opts.cap);
    },

    /** Norway: the direct owners of one company in each of `years` (for the changes between them). */
    async norwegianHoldersByYear(orgNumber: string, years: number[], includePersons: boolean): Promise<YearHolder[]> {
      if (!years.length) return [];
      const pick = sql`SELECT ${orgNumber}::text AS org_number, y.run_id FROM shareholder_years y
        WHERE y.year = ANY(${years}::integer[])`;
      return holders(db, pick, includePersons);
    },

    /**
     * Norway: the direct owners of each company in the run named beside it (published or not:
     * the import that is being published compares its run with the runs readers saw before).
     */
    async norwegianHoldersOfRuns(
      pairs: { orgNumber: string; runId: number }[],
      includePersons: boolean,
    ): Promise<YearHolder[]> {
      if (!pairs.length) return [];
      const pick = sql`SELECT * FROM unnest(${pairs.map((p) => p.orgNumber)}::text[], ${pairs.map((p) => p.runId)}::bigint[])
        AS p(org_number, run_id)`;
      return holders(db, pick, includePersons);
    },

    /**
     * Norway: what each of `holderOrgNumbers` holds. A company held is read from the year asked
     * for or, when it has no rows then, its latest earlier year (the same rule as the walk up);
     * shares over all classes, treasury shares out of the base.
     */
    async norwegianHoldings(
      holderOrgNumbers: string[],
      opts: { year: number | undefined },
    ): Promise<Map<string, HoldingEdge[]>> {
      const out = new Map<string, HoldingEdge[]>();
      if (!holderOrgNumbers.length) return out;
      const upTo =
        opts.year === undefined ? sql`(SELECT max(year) FROM shareholder_years)` : sql`${opts.year}::integer`;
      const res = await sql<{
        holder: string;
        org_number: string;
        year: number;
        company_name: string | null;
        org_form_code: string | null;
        employee_count: number | null;
        share_classes: string | null;
        shares: string | number;
        base: string | number;
      }>`
        WITH held AS (
          SELECT DISTINCT s.org_number FROM shareholder_years y
          JOIN shareholdings s ON s.run_id = y.run_id
          WHERE y.year <= ${upTo} AND s.holder_org_number = ANY(${holderOrgNumbers}::text[])
            AND s.holder_org_number <> s.org_number
        ),
        pick AS (SELECT h.org_number, ${newestYear(sql.ref('h.org_number'), upTo)} AS year FROM held h),
        r AS (
          SELECT s.* FROM pick p
          JOIN shareholder_years y ON y.year = p.year
          JOIN shareholdings s ON s.run_id = y.run_id AND s.org_number = p.org_number
        ),
        ${BASES},
        mine AS (
          SELECT org_number, year, holder_org_number, max(company_name) AS company_name,
                 string_agg(DISTINCT share_class, ', ') AS share_classes, sum(share_count) AS shares
          FROM r WHERE holder_org_number = ANY(${holderOrgNumbers}::text[]) AND holder_org_number <> org_number
          GROUP BY org_number, year, holder_org_number
        )
        SELECT m.holder_org_number AS holder, m.org_number, m.year, COALESCE(c.name, m.company_name) AS company_name,
               c.org_form_code, c.employee_count, m.share_classes, m.shares, b.base
        FROM mine m JOIN bases b ON b.org_number = m.org_number AND b.year = m.year
        LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = m.org_number
        WHERE b.base > 0
        ORDER BY m.holder_org_number, m.shares::numeric / b.base DESC, m.org_number`.execute(db);
      for (const r of res.rows) {
        const share = Number(r.shares) / Number(r.base);
        const list = out.get(r.holder) ?? [];
        if (!list.length) out.set(r.holder, list);
        list.push({
          orgNumber: r.org_number,
          name: r.company_name,
          country: 'NO',
          orgFormCode: r.org_form_code,
          employeeCount: r.employee_count === null ? null : Number(r.employee_count),
          share: { low: share, high: share },
          year: r.year,
          shareClass: r.share_classes,
        });
      }
      return out;
    },

    /** Denmark: what each of `ownerCvrs` holds in CVR's owner register, as its bands. */
    async danishHoldings(ownerCvrs: string[]): Promise<Map<string, HoldingEdge[]>> {
      const out = new Map<string, HoldingEdge[]>();
      if (!ownerCvrs.length) return out;
      const res = await sql<{
        owner_cvr: string;
        investee_cvr: string;
        name: string | null;
        org_form_code: string | null;
        employee_count: number | null;
        pct_low: number;
        pct_high: number;
      }>`
        SELECT o.owner_cvr, o.investee_cvr, c.name, c.org_form_code, c.employee_count, o.pct_low, o.pct_high
        FROM cvr_owners o LEFT JOIN companies c ON c.country = 'DK' AND c.org_number = o.investee_cvr
        WHERE o.owner_cvr = ANY(${ownerCvrs}::text[]) AND o.owner_cvr <> o.investee_cvr
        ORDER BY o.owner_cvr, o.pct_low DESC, o.investee_cvr`.execute(db);
      for (const r of res.rows) {
        const list = out.get(r.owner_cvr) ?? [];
        if (!list.length) out.set(r.owner_cvr, list);
        list.push({
          orgNumber: r.investee_cvr,
          name: r.name,
          country: 'DK',
          orgFormCode: r.org_form_code,
          employeeCount: r.employee_count === null ? null : Number(r.employee_count),
          share: { low: Number(r.pct_low) / 100, high: Number(r.pct_high) / 100 },
          year: null,
          shareClass: null,
        });
      }
      return out;
    },

    /** Denmark: the legal owners of each company, as CVR's bands (a company owner is Danish). */
    async danishOwners(cvrs: string[], opts: { includePersons: boolean }): Promise<Map<string, NodeOwners>> {
      const out = new Map<string, NodeOwners>();
      if (!cvrs.length) return out;
      const rows = await sql<{
        investee_cvr: string;
        investee_name: string | null;
        owner_type: string;
        owner_name: string;
        owner_cvr: string | null;
        org_form_code: string | null;
        pct_low: number;
        pct_high: number;
      }>`
        SELECT o.investee_cvr, ci.name AS investee_name, o.owner_type, o.owner_name, o.owner_cvr, ch.org_form_code,
               o.pct_low, o.pct_high
        FROM cvr_owners o
        LEFT JOIN companies ci ON ci.country = 'DK' AND ci.org_number = o.investee_cvr
        LEFT JOIN companies ch ON ch.country = 'DK' AND ch.org_number = o.owner_cvr
        WHERE o.investee_cvr = ANY(${cvrs}::text[])
        ORDER BY o.investee_cvr, o.pct_low DESC, o.position`.execute(db);
      for (const r of rows.rows) {
        let node = out.get(r.investee_cvr);
        if (!node) out.set(r.investee_cvr, (node = { name: r.investee_name, year: null, edges: [] }));
        const person = r.owner_type === 'person';
        const company = !person && r.owner_cvr !== null;
        node.edges.push({
          kind: person ? 'person' : company ? 'company' : 'foreign',
          orgNumber: company ? r.owner_cvr : null,
          // Data minimisation: a person's name only on request (CVR gives no birth year; no id is kept).
          name: person && !opts.includePersons ? null : r.owner_name,
          country: company ? 'DK' : null,
          birthYear: null,
          orgFormCode: r.org_form_code,
          shareClass: null,
          share: { low: Number(r.pct_low) / 100, high: Number(r.pct_high) / 100 },
        });
      }
      return out;
    },
  };
}

export type OwnershipChainRepository = ReturnType<typeof createOwnershipChainRepository>;
