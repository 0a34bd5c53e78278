// Where a figure came from, as a link a person can follow: the registry's own public page for
// the company where it has one, else the publisher's home page. Names are those `_sources` uses.
const COMPANY_PAGES: Record<string, (org: string) => string> = {
  Brønnøysundregistrene: (org) => `https://data.brreg.no/enhetsregisteret/oppslag/enheter/${org}`,
  Regnskapsregisteret: (org) => `https://data.brreg.no/regnskapsregisteret/regnskap/${org}`,
  Aksjonærregisteret: () =>
    'https://www.skatteetaten.no/en/business-and-organisation/reporting-and-industries/shareholder-register/',
  PRH: (org) => `https://tietopalvelu.ytj.fi/yritys/${org}`,
  'Patentti- ja rekisterihallitus': (org) => `https://tietopalvelu.ytj.fi/yritys/${org}`,
  Bolagsverket: () => 'https://www.bolagsverket.se/',
  SCB: () => 'https://www.scb.se/',
  CVR: (org) => `https://datacvr.virk.dk/enhed/virksomhed/${org}`,
  'Erhvervsstyrelsen (CVR)': (org) => `https://datacvr.virk.dk/enhed/virksomhed/${org}`,
  Mattilsynet: () => 'https://www.mattilsynet.no/',
  Doffin: () => 'https://www.doffin.no/',
  OpenSanctions: () => 'https://www.opensanctions.org/',
};

export function sourceUrl(source: string | undefined, orgNumber: string): string | undefined {
  if (!source) return undefined;
  const exact = COMPANY_PAGES[source];
  if (exact) return exact(orgNumber);
  const partial = Object.keys(COMPANY_PAGES).find((k) => source.includes(k));
  return partial ? COMPANY_PAGES[partial](orgNumber) : undefined;
}

/** The source of one field group in `_sources.fields`, a name or `{source, computed}`. */
export function sourceName(field: unknown): string | undefined {
  if (typeof field === 'string') return field;
  if (field && typeof field === 'object' && 'source' in field) return String((field as { source: unknown }).source);
  return undefined;
}
