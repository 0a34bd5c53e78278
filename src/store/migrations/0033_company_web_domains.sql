-- Company by domain (GET /api/companies?domain=, POST /api/companies/match with domain or
-- e-mail). A company's web domains are the registry homepage (companies.website, as the registry
-- holds it: "www.example.no", "https://shop.example.no/om-oss"), the enrichment pipeline's
-- primary domain and its confirmed domains. The query's domain is reduced to its registrable
-- domain in code (Public Suffix List); PostgreSQL has no suffix list, so here every host is
-- indexed with each of its dotted suffixes ("shop.example.no", "example.no"): the registrable
-- domain of a host is one of them, and one GIN containment (@>) finds the host, its www. and its
-- subdomains at once.

-- The domain keys of one company: every suffix with at least one dot of the host of its homepage,
-- its primary domain and each enriched domain ("www.example.no" -> {example.no, www.example.no}).
-- A host is read as registries write it: blanks dropped, lower case, scheme, user info, port,
-- path, query and fragment cut off, a trailing dot dropped. One self-contained function: index
-- builds run it with a search_path that holds no function of ours.
CREATE FUNCTION company_web_domains(website text, primary_domain text, enriched_domains text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(DISTINCT array_to_string(h.l[i:], '.') ORDER BY array_to_string(h.l[i:], '.')), '{}')
  FROM unnest(COALESCE(enriched_domains, '{}') || ARRAY[primary_domain, website]) AS s
  CROSS JOIN LATERAL (
    SELECT string_to_array(NULLIF(rtrim(substring(
      regexp_replace(regexp_replace(lower(regexp_replace(s, '\s+', '', 'g')), '^[a-z][a-z0-9+.-]*://', ''), '^[^@/]*@', '')
      FROM '^[^/?#:]*'), '.'), ''), '.') AS l
  ) h
  CROSS JOIN LATERAL generate_series(1, cardinality(h.l) - 1) AS i
$$;

-- Only companies with any web domain (a minority) are indexed; the search repeats the predicate.
CREATE INDEX companies_web_domains ON companies
  USING gin (company_web_domains(website, primary_domain, enriched_domains))
  WHERE website IS NOT NULL OR primary_domain IS NOT NULL OR enriched_domains <> '{}';
