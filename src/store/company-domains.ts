// Company by domain: the SQL of the `domain` search filter and of the domain candidates of
// POST /api/companies/match. Both use the GIN index over company_web_domains() (migration 0033):
// the dotted suffixes of the homepage's host, the primary domain and the enriched domains. The
// domain given is a registrable domain, reduced in code (domain/company-domain.ts).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from './engine/schema.ts';
import type { MatchCandidateRow } from './company-names.ts';

/**
 * The companies (alias c) whose homepage, primary domain or enriched domains lie in `domain`: a
 * value, or a column of the surrounding statement.
 */
export function webDomainCondition(domain: string | RawBuilder<unknown>): RawBuilder<SqlBool> {
  // The index's predicate, repeated so that the planner may use the partial index.
  return sql<SqlBool>`(c.website IS NOT NULL OR c.primary_domain IS NOT NULL OR c.enriched_domains <> '{}')
    AND company_web_domains(c.website, c.primary_domain, c.enriched_domains) @> ARRAY[${domain}]::text[]`;
}

/** One domain lookup of a match query (its index in the batch). */
export interface DomainProbe {
  query: number;
  domain: string;
  country: string | null;
}

/** A candidate company of a domain lookup, with every domain it holds. */
export interface DomainCandidateRow extends MatchCandidateRow {
  enriched_domains: string[];
}

/**
 * Companies per domain lookup. A registrable domain belongs to one company or a handful (a group's
 * companies, an agency's clients); beyond this, the rest are not worth ranking.
 */
const CANDIDATES_PER_DOMAIN = 25;

export function createCompanyDomainRepository(db: Kysely<Database>) {
  return {
    /** For each probe, the companies holding its domain (live ones first, then by number): one statement. */
    async candidates(probes: DomainProbe[]): Promise<DomainCandidateRow[]> {
      if (probes.length === 0) return [];
      const r = await sql<DomainCandidateRow>`
        WITH p AS (
          SELECT * FROM unnest(${probes.map((p) => p.query)}::int[], ${probes.map((p) => p.domain)}::text[],
                               ${probes.map((p) => p.country)}::text[]) AS u(query, domain, country)
        )
        SELECT p.query, c.country, c.org_number, c.name, c.org_form_code,
               c.business_address_city, c.business_address_municipality, c.business_address_postal_code,
               c.postal_address_city, c.postal_address_postal_code, c.website, c.primary_domain, c.enriched_domains,
               c.is_deleted, c.is_bankrupt, c.is_being_dissolved, c.is_in_forced_dissolution, c.status
        FROM p CROSS JOIN LATERAL (
          SELECT c.* FROM companies c
          WHERE ${webDomainCondition(sql.ref('p.domain'))}
            AND (p.country IS NULL OR c.country = p.country)
          ORDER BY c.is_deleted, c.is_bankrupt, c.org_number
          LIMIT ${CANDIDATES_PER_DOMAIN}
        ) c
        ORDER BY p.query, c.org_number`.execute(db);
      return r.rows;
    },
  };
}

export type CompanyDomainRepository = ReturnType<typeof createCompanyDomainRepository>;
