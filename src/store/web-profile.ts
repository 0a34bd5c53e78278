// The web-profile pipeline's state (tables enrichment, enrichment_domains: their names predate
// the rename and stay, as renaming tables would need a migration for no gain) and its results on
// the company row. Stages are written as they complete, so an interrupted run resumes where
// each company stopped.
import { sql, type Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';

type WebProfileStage = 'candidates' | 'probed' | 'scored' | 'done';
export type WebProfileRowStatus = 'pending' | 'confirmed' | 'ambiguous' | 'rejected';

export interface SeedSource {
  companyId: number;
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  website: string | null;
  email: string | null;
  /** Null: never seeded. */
  inputHash: string | null;
}

export interface SeedWrite {
  companyId: number;
  orgNumber: string;
  inputHash: string;
  candidates: unknown[];
  domains: { domain: string; origin: string }[];
}

export interface DueCompany {
  companyId: number;
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  stage: WebProfileStage;
  candidates: unknown[];
}

export interface CompanyWebProfileFields {
  primaryDomain: string | null;
  enrichedDomains: string[];
  linkedinHandle: string | null;
  facebookHandle: string | null;
  instagramHandle: string | null;
  twitterHandle: string | null;
  technologies: { name: string; category: string; confidence: number }[];
  technologyNames: string[];
  hasAdPixel: boolean;
  /** Provenance keys to set (domain, socialHandles, technologies); the others are removed. */
  sources: Record<string, string>;
}

interface WebProfileListQuery {
  /** Undefined: every status but pending. */
  status?: WebProfileRowStatus;
  minConfidence: number;
  limit: number;
  offset: number;
}

export interface WebProfileListRow {
  org_number: string;
  company_name: string;
  status: WebProfileRowStatus;
  confidence: number;
  primary_domain: string | null;
  linkedin_handle: string | null;
  facebook_handle: string | null;
  confirmed_domains: string[];
  candidates: unknown[];
  stage: WebProfileStage;
  completed_at: Date | null;
  website: string | null;
  org_form_code: string | null;
  city: string | null;
  employee_count: number | null;
}

const SOURCE_KEYS = sql.raw(`'domain' - 'socialHandles' - 'technologies'`);

export function createWebProfileRepository(db: Kysely<Database>) {
  return {
    /** Drops pipeline state of companies that are no longer live Norwegian companies. */
    async pruneGone(): Promise<number> {
      const res = await sql`DELETE FROM enrichment e USING companies c
        WHERE c.id = e.company_id AND (c.is_deleted OR c.country <> 'NO')`.execute(db);
      return Number(res.numAffectedRows ?? 0);
    },

    /** Live Norwegian companies never seeded, or changed since they were (by id, keyset). */
    async seedSources(afterId: number, size: number): Promise<SeedSource[]> {
      const res = await sql<{
        id: number;
        org_number: string;
        name: string;
        org_form_code: string | null;
        website: string | null;
        email: string | null;
        input_hash: string | null;
      }>`
        SELECT c.id, c.org_number, c.name, c.org_form_code, c.website, c.email, e.input_hash
        FROM companies c LEFT JOIN enrichment e ON e.company_id = c.id
        WHERE c.country = 'NO' AND NOT c.is_deleted AND c.id > ${afterId}
          AND (e.company_id IS NULL OR c.updated_at > e.seeded_at)
        ORDER BY c.id LIMIT ${size}`.execute(db);
      return res.rows.map((r) => ({
        companyId: r.id,
        orgNumber: r.org_number,
        name: r.name,
        orgFormCode: r.org_form_code,
        website: r.website,
        email: r.email,
        inputHash: r.input_hash,
      }));
    },

    /**
     * New or changed inputs: candidates replaced and the company sent back to the first stage
     * (its last outcome stays visible until re-scored). Unchanged: only marked as seen.
     */
    async saveSeeds(changed: SeedWrite[], unchangedIds: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (unchangedIds.length)
          await sql`UPDATE enrichment SET seeded_at = now() WHERE company_id = ANY(${unchangedIds}::bigint[])`.execute(
            trx,
          );
        if (!changed.length) return;
        const rows = changed.map((c) => ({
          company_id: c.companyId,
          org_number: c.orgNumber,
          input_hash: c.inputHash,
          candidates: c.candidates,
        }));
        await sql`INSERT INTO enrichment (company_id, org_number, input_hash, candidates, stage, seeded_at, updated_at)
          SELECT x.company_id, x.org_number, x.input_hash, x.candidates, 'candidates', now(), now()
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(company_id bigint, org_number text, input_hash text, candidates jsonb)
          ON CONFLICT (company_id) DO UPDATE SET org_number = EXCLUDED.org_number, input_hash = EXCLUDED.input_hash,
            candidates = EXCLUDED.candidates, stage = 'candidates', seeded_at = now(), updated_at = now()`.execute(trx);
        const ids = changed.map((c) => c.companyId);
        await sql`DELETE FROM enrichment_domains WHERE company_id = ANY(${ids}::bigint[])`.execute(trx);
        const domains = changed.flatMap((c) =>
          c.domains.map((d) => ({ company_id: c.companyId, domain: d.domain, origin: d.origin })),
        );
        if (domains.length) {
          await sql`INSERT INTO enrichment_domains (company_id, domain, origin)
            SELECT x.company_id, x.domain, x.origin FROM jsonb_to_recordset(${JSON.stringify(domains)}::jsonb) AS x(company_id bigint, domain text, origin text)
            ON CONFLICT DO NOTHING`.execute(trx);
        }
      });
    },

    /** Unfinished passes first, then never completed, then the oldest completed. */
    async due(limit: number): Promise<DueCompany[]> {
      const res = await sql<{
        company_id: number;
        org_number: string;
        name: string;
        org_form_code: string | null;
        stage: WebProfileStage;
        candidates: unknown[];
      }>`
        SELECT e.company_id, e.org_number, c.name, c.org_form_code, e.stage, e.candidates
        FROM enrichment e JOIN companies c ON c.id = e.company_id
        ORDER BY (e.stage = 'done'), e.completed_at NULLS FIRST, e.org_number
        LIMIT ${limit}`.execute(db);
      return res.rows.map((r) => ({
        companyId: r.company_id,
        orgNumber: r.org_number,
        name: r.name,
        orgFormCode: r.org_form_code,
        stage: r.stage,
        candidates: r.candidates,
      }));
    },

    /** domain -> how many other live companies list it as their website or e-mail domain. */
    async otherPointers(companyId: number, domains: string[]): Promise<Map<string, number>> {
      if (!domains.length) return new Map();
      const res = await sql<{ domain: string; n: number }>`
        SELECT d.domain, count(DISTINCT d.company_id)::int AS n FROM enrichment_domains d
        WHERE d.domain = ANY(${domains}::text[]) AND d.origin <> 'name-guess' AND d.company_id <> ${companyId}
        GROUP BY d.domain`.execute(db);
      return new Map(res.rows.map((r) => [r.domain, Number(r.n)]));
    },

    async saveProbed(companyId: number, candidates: unknown[]): Promise<void> {
      await sql`UPDATE enrichment SET stage = 'probed', candidates = ${JSON.stringify(candidates)}::jsonb, updated_at = now()
        WHERE company_id = ${companyId}`.execute(db);
    },

    async saveScored(
      companyId: number,
      s: {
        candidates: unknown[];
        status: WebProfileRowStatus;
        confidence: number;
        primaryDomain: string | null;
        confirmedDomains: string[];
      },
    ): Promise<void> {
      await sql`UPDATE enrichment SET stage = 'scored', candidates = ${JSON.stringify(s.candidates)}::jsonb, status = ${s.status},
          confidence = ${s.confidence}, primary_domain = ${s.primaryDomain}, confirmed_domains = ${s.confirmedDomains}::text[], updated_at = now()
        WHERE company_id = ${companyId}`.execute(db);
    },

    /**
     * Writes the results onto the company (updated_at bumped only when something differs) and
     * closes the pass. Returns whether the company row changed.
     */
    async complete(companyId: number, f: CompanyWebProfileFields, completedAt: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const techs = JSON.stringify(f.technologies);
        const sources = JSON.stringify(f.sources);
        const res = await sql`UPDATE companies SET
            primary_domain = ${f.primaryDomain}, enriched_domains = ${f.enrichedDomains}::text[],
            linkedin_handle = ${f.linkedinHandle}, facebook_handle = ${f.facebookHandle},
            instagram_handle = ${f.instagramHandle}, twitter_handle = ${f.twitterHandle},
            technologies = ${techs}::jsonb, technology_names = ${f.technologyNames}::text[], has_ad_pixel = ${f.hasAdPixel},
            sources = (sources - ${SOURCE_KEYS}) || ${sources}::jsonb, updated_at = now()
          WHERE id = ${companyId} AND (primary_domain, enriched_domains, linkedin_handle, facebook_handle, instagram_handle,
              twitter_handle, technologies, technology_names, has_ad_pixel, sources)
            IS DISTINCT FROM (${f.primaryDomain}::text, ${f.enrichedDomains}::text[], ${f.linkedinHandle}::text, ${f.facebookHandle}::text,
              ${f.instagramHandle}::text, ${f.twitterHandle}::text, ${techs}::jsonb, ${f.technologyNames}::text[], ${f.hasAdPixel}::boolean,
              (sources - ${SOURCE_KEYS}) || ${sources}::jsonb)`.execute(trx);
        await sql`UPDATE enrichment SET stage = 'done', completed_at = ${completedAt.toISOString()}::timestamptz, updated_at = now() WHERE company_id = ${companyId}`.execute(
          trx,
        );
        return Number(res.numAffectedRows ?? 0) > 0;
      });
    },

    /** Rows per status at or above the confidence floor (the list's `summary`). */
    async countByStatus(minConfidence: number): Promise<Record<WebProfileRowStatus, number>> {
      const res = await sql<{ status: WebProfileRowStatus; n: number }>`
        SELECT status, count(*)::int AS n FROM enrichment WHERE confidence >= ${minConfidence} GROUP BY status`.execute(
        db,
      );
      const out: Record<WebProfileRowStatus, number> = { pending: 0, confirmed: 0, ambiguous: 0, rejected: 0 };
      for (const r of res.rows) out[r.status] = Number(r.n);
      return out;
    },

    async list(q: WebProfileListQuery): Promise<WebProfileListRow[]> {
      // Two spellings of the filter so each matches its index (see 0007_enrichment.sql).
      const statusFilter = q.status ? sql`e.status = ${q.status}` : sql`e.status <> 'pending'`;
      const res = await sql<WebProfileListRow>`
        SELECT e.org_number, c.name AS company_name, e.status, e.confidence, e.primary_domain, c.linkedin_handle, c.facebook_handle,
          e.confirmed_domains, e.candidates, e.stage, e.completed_at, c.website, c.org_form_code,
          c.business_address_city AS city, c.employee_count
        FROM enrichment e JOIN companies c ON c.id = e.company_id
        WHERE ${statusFilter} AND e.confidence >= ${q.minConfidence}
        ORDER BY e.confidence DESC, e.org_number
        LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
      return res.rows;
    },
  };
}

export type WebProfileRepository = ReturnType<typeof createWebProfileRepository>;
