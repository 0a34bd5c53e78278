-- Domain-enrichment pipeline (`ncd sync domains`): one row per Norwegian company with its
-- candidate domains, the probe facts and the scoring ledger (candidates jsonb), the stage
-- reached and the outcome. The company-facing results (primary_domain, handles,
-- technologies …) are written onto companies when a company's pass completes.
CREATE TABLE enrichment (
  company_id bigint PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  org_number text NOT NULL,             -- denormalised so the list order is served by an index
  -- candidates: domains listed, not probed yet; probed: HTTP facts and page signals stored;
  -- scored: score and status set; done: detection written onto the company row.
  stage text NOT NULL DEFAULT 'candidates' CHECK (stage IN ('candidates', 'probed', 'scored', 'done')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'ambiguous', 'rejected')),
  confidence integer NOT NULL DEFAULT 0 CHECK (confidence BETWEEN 0 AND 100),
  primary_domain text,
  confirmed_domains text[] NOT NULL DEFAULT '{}',
  candidates jsonb NOT NULL DEFAULT '[]',
  input_hash text NOT NULL,             -- name, legal form, website, e-mail the candidates came from
  seeded_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,             -- last full pass; null = never completed
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- GET /api/enrichment: filter by status and confidence, order by confidence desc, org number.
CREATE INDEX enrichment_status_order ON enrichment (status, confidence DESC, org_number);
-- The default listing (every status but pending) in the same order.
CREATE INDEX enrichment_scored_order ON enrichment (confidence DESC, org_number) WHERE status <> 'pending';
-- Work selection: unfinished passes first, then never completed, then oldest completed.
CREATE INDEX enrichment_due ON enrichment ((stage = 'done'), completed_at NULLS FIRST, org_number);

-- Every candidate domain of every seeded company, so a domain's sharing can be counted
-- across the whole register (a web agency, portal or shared host is listed by many).
CREATE TABLE enrichment_domains (
  company_id bigint NOT NULL REFERENCES enrichment(company_id) ON DELETE CASCADE,
  domain text NOT NULL,
  origin text NOT NULL,
  PRIMARY KEY (company_id, domain)
);
CREATE INDEX enrichment_domains_pointed ON enrichment_domains (domain) WHERE origin <> 'name-guess';
