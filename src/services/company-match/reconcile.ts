// The W3C Reconciliation Service API (v0.2) over the company matcher, for OpenRefine: the
// manifest, batched queries (types = countries, properties = place, postcode, website …),
// entity preview, suggest, and data extension with firmographic columns. Entity ids are
// "CC:orgNumber" ("NO:923609016", "FI:2646674-9").
import type { Config } from '../../config/index.ts';
import { MATCH_COUNTRIES, type CompanyMatchQuery } from '../../contract/company-match.ts';
import { invalid, ApiError } from '../../errors.ts';
import type { CompanyReadRepository } from '../../store/company-reads.ts';
import type { CompanySuggestRepository, SuggestRow } from '../../store/company-suggest.ts';
import type { CompanyMatchService, QueryMatch } from './company-match.ts';
import { cellsOf, EXTEND_PROPERTIES, isExtendProperty, previewHtml } from './reconcile-extend.ts';

export interface ReconcileDeps {
  match: CompanyMatchService;
  reads: CompanyReadRepository;
  /** Names that start with what was typed (suggest). */
  suggest: Pick<CompanySuggestRepository, 'byNamePrefix'>;
  /** Read per call: the public base URL (BASE_URL). */
  config: Pick<Config, 'baseUrl'>;
}

type Country = (typeof MATCH_COUNTRIES)[number];
const TYPES: { id: Country; name: string }[] = [
  { id: 'NO', name: 'Norwegian company' },
  { id: 'SE', name: 'Swedish company' },
  { id: 'FI', name: 'Finnish company' },
  { id: 'DK', name: 'Danish company' },
];
const TYPE_NAME = new Map(TYPES.map((t) => [t.id, t.name]));

/** Query properties OpenRefine can send with a name (its other columns). */
const QUERY_PROPERTIES = [
  { id: 'municipality', name: 'Municipality' },
  { id: 'city', name: 'City' },
  { id: 'postalCode', name: 'Postal code' },
  { id: 'address', name: 'Street address' },
  { id: 'website', name: 'Website or domain' },
  { id: 'orgForm', name: 'Organisation form code' },
] as const;
type QueryProperty = (typeof QUERY_PROPERTIES)[number]['id'];
const QUERY_PROPERTY_IDS = new Set<string>(QUERY_PROPERTIES.map((p) => p.id));

const MAX_RECONCILE_QUERIES = 100;
const MAX_EXTEND_IDS = 100;
const MAX_CANDIDATES = 10;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(`body.${field}`, 'must be JSON');
  }
}

/** Typed text as the store's name_norm spells names (NFC, lowercased), runs of spaces as one. */
const namePrefix = (typed: string) => typed.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trimStart();

/** The place and, when it no longer trades as usual, the status (as the matcher words them). */
function suggestDescription(r: SuggestRow): string {
  const status = r.is_bankrupt
    ? 'bankrupt'
    : r.is_being_dissolved || r.is_in_forced_dissolution
      ? 'dissolving'
      : r.status && r.status !== 'registered'
        ? r.status
        : 'active';
  return [r.business_address_city ?? r.business_address_municipality, status].filter(Boolean).join(' · ');
}

/** "NO:923609016" -> ["NO", "923609016"] */
function parseEntityId(id: string, path: string): [Country, string] {
  const m = /^(NO|SE|FI|DK):([0-9A-Za-z-]{4,20})$/.exec(id.trim());
  if (!m) throw invalid(path, 'must be an entity id "CC:orgNumber", e.g. NO:923609016');
  return [m[1] as Country, m[2]];
}

const first = (v: unknown): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  if (isObject(x)) return typeof x.name === 'string' ? x.name : typeof x.id === 'string' ? x.id : undefined;
  return x === undefined || x === null ? undefined : String(x);
};

function typeOf(type: unknown, path: string): Country | undefined {
  const t = Array.isArray(type) ? type[0] : type;
  if (t === undefined) return undefined;
  if (typeof t !== 'string' || !TYPE_NAME.has(t.toUpperCase() as Country))
    throw invalid(path, `type must be one of ${MATCH_COUNTRIES.join(', ')}`);
  return t.toUpperCase() as Country;
}

/** One reconciliation query as a matcher query; 400 naming the query key when it is malformed. */
function matchQueryOf(key: string, q: unknown): { query: CompanyMatchQuery; limit: number } {
  const path = `body.queries.${key}`;
  if (!isObject(q)) throw invalid(path, 'must be an object');
  if (typeof q.query !== 'string' || !/[\p{L}\p{N}]/u.test(q.query) || q.query.length > 300)
    throw invalid(`${path}.query`, 'must be a name with a letter or digit (at most 300 characters)');
  const query: CompanyMatchQuery = { name: q.query.trim() };
  const country = typeOf(q.type, `${path}.type`);
  if (country) query.country = country;
  if (q.properties !== undefined) {
    if (!Array.isArray(q.properties)) throw invalid(`${path}.properties`, 'must be an array');
    q.properties.forEach((p, i) => {
      if (!isObject(p) || typeof p.pid !== 'string' || !QUERY_PROPERTY_IDS.has(p.pid))
        throw invalid(`${path}.properties.${i}.pid`, `must be one of ${[...QUERY_PROPERTY_IDS].join(', ')}`);
      const value = first(p.v)?.trim().slice(0, 200);
      if (value) query[p.pid as QueryProperty] = value;
    });
  }
  // Values the matcher's schema would refuse are dropped, as OpenRefine sends whatever a cell holds.
  if (query.postalCode && !/^[0-9A-Za-z -]{3,10}$/.test(query.postalCode)) delete query.postalCode;
  if (query.orgForm && !/^[0-9A-Za-z]{1,10}$/.test(query.orgForm)) delete query.orgForm;
  const limit = typeof q.limit === 'number' && q.limit >= 1 ? Math.min(Math.floor(q.limit), MAX_CANDIDATES) : 5;
  return { query, limit };
}

function resultOf(m: QueryMatch, limit: number) {
  return m.candidates.slice(0, limit).map((c) => ({
    id: `${c.candidate.country}:${c.candidate.orgNumber}`,
    name: c.candidate.name,
    description: [c.candidate.places[0], c.features.status].filter(Boolean).join(' · '),
    score: Math.round(c.score * 1000) / 10,
    match: m.match === c,
    type: [{ id: c.candidate.country, name: TYPE_NAME.get(c.candidate.country as Country) ?? c.candidate.country }],
    features: [
      { id: 'name', value: c.features.nameSimilarity },
      { id: 'formerName', value: c.features.formerName },
      ...(['place', 'postalCode', 'domain', 'orgForm'] as const)
        .filter((f) => c.features[f] !== 'unknown')
        .map((f) => ({ id: f, value: c.features[f] === 'match' })),
    ],
  }));
}

export function createReconcileService(deps: ReconcileDeps) {
  const byPrefix = <T extends { id: string; name: string }>(list: readonly T[], prefix: string) => {
    const p = prefix.trim().toLowerCase();
    return list.filter((x) => x.id.toLowerCase().startsWith(p) || x.name.toLowerCase().includes(p));
  };

  async function loadRows(ids: string[], path: string) {
    const parsed = ids.map((id, i) => parseEntityId(id, `${path}.${i}`));
    const byCountry = new Map<Country, string[]>();
    for (const [c, n] of parsed) byCountry.set(c, [...(byCountry.get(c) ?? []), n]);
    const rows = (await Promise.all([...byCountry].map(([c, ns]) => deps.reads.findRows(c, ns)))).flat();
    return new Map(rows.map((r) => [`${r.country}:${r.org_number}`, r]));
  }

  return {
    /** The manifest, pointing OpenRefine at this key's service URL. */
    manifest(serviceUrl: string) {
      const base = deps.config.baseUrl.replace(/\/$/, '');
      return {
        versions: ['0.1', '0.2'],
        name: 'Nordic company data',
        identifierSpace: `${base}/api/companies/`,
        schemaSpace: `${base}/api/reconcile/schema`,
        documentation: `${base}/docs`,
        defaultTypes: TYPES,
        view: { url: `${serviceUrl}/preview?id={{id}}` },
        preview: { url: `${serviceUrl}/preview?id={{id}}`, width: 400, height: 180 },
        suggest: {
          entity: { service_url: serviceUrl, service_path: '/suggest/entity' },
          property: { service_url: serviceUrl, service_path: '/suggest/property' },
          type: { service_url: serviceUrl, service_path: '/suggest/type' },
        },
        extend: {
          propose_properties: { service_url: serviceUrl, service_path: '/extend/propose' },
          property_settings: [],
        },
      };
    },

    /** A `queries=` batch: candidates per query key, `match` on the clear winner. */
    async reconcile(queriesJson: string) {
      const batch = parseJson('queries', queriesJson);
      if (!isObject(batch)) throw invalid('body.queries', 'must be a JSON object of queries');
      const keys = Object.keys(batch);
      if (keys.length === 0 || keys.length > MAX_RECONCILE_QUERIES)
        throw invalid('body.queries', `must hold 1–${MAX_RECONCILE_QUERIES} queries`);
      const parsed = keys.map((k) => matchQueryOf(k, batch[k]));
      const matched = await deps.match.matchQueries(
        parsed.map((p) => p.query),
        { limit: MAX_CANDIDATES },
      );
      return Object.fromEntries(keys.map((k, i) => [k, { result: resultOf(matched[i], parsed[i].limit) }]));
    },

    /** An `extend=` query: the asked columns of each reconciled company. */
    async extend(extendJson: string) {
      const q = parseJson('extend', extendJson);
      if (!isObject(q) || !Array.isArray(q.ids) || !Array.isArray(q.properties))
        throw invalid('body.extend', 'must be {"ids": [...], "properties": [{"id": ...}]}');
      if (q.ids.length > MAX_EXTEND_IDS) throw invalid('body.extend.ids', `at most ${MAX_EXTEND_IDS} ids`);
      const ids = q.ids.map((id, i) => {
        if (typeof id !== 'string') throw invalid(`body.extend.ids.${i}`, 'must be a string');
        return id;
      });
      const props = q.properties.map((p, i) => {
        const id = isObject(p) ? p.id : undefined;
        if (typeof id !== 'string' || !isExtendProperty(id))
          throw invalid(
            `body.extend.properties.${i}.id`,
            `must be one of ${EXTEND_PROPERTIES.map((x) => x.id).join(', ')}`,
          );
        return id;
      });
      const rows = await loadRows(ids, 'body.extend.ids');
      return {
        meta: props.map((id) => ({ id, name: EXTEND_PROPERTIES.find((p) => p.id === id)!.name })),
        rows: Object.fromEntries(
          ids.map((id) => {
            const row = rows.get(id.trim());
            return [id, Object.fromEntries(props.map((p) => [p, row ? cellsOf(row, p) : []]))];
          }),
        ),
      };
    },

    /** Columns OpenRefine offers for "add columns from reconciled values". */
    propose(type: string | undefined, limit?: number) {
      const t = type && TYPE_NAME.has(type as Country) ? type : 'NO';
      const properties = EXTEND_PROPERTIES.slice(0, limit && limit > 0 ? limit : undefined).map((p) => ({ ...p }));
      return { type: t, properties, ...(limit ? { limit } : {}) };
    },

    async preview(id: string): Promise<string> {
      const rows = await loadRows([id], 'query.id');
      const row = rows.get(id.trim());
      if (!row) throw new ApiError('company_not_found');
      return previewHtml(row);
    },

    /**
     * What a user is typing: names that start with it first ("NORDKAPP IND" is a prefix of
     * "NORDKAPP INDUSTRI AS": its last word may be cut short), then the matcher's candidates for
     * it as a whole name (words in another order, a typo, a former name), without repeats.
     */
    async suggestEntity(prefix: string) {
      if (!/[\p{L}\p{N}]/u.test(prefix)) return { result: [] };
      const typed = prefix.slice(0, 300);
      const [starts, [m]] = await Promise.all([
        deps.suggest.byNamePrefix(namePrefix(typed), MAX_CANDIDATES),
        deps.match.matchQueries([{ name: typed }], { limit: MAX_CANDIDATES }),
      ]);
      const entry = (country: string, orgNumber: string, name: string, description: string) => ({
        id: `${country}:${orgNumber}`,
        name,
        description,
        notable: [{ id: country, name: TYPE_NAME.get(country as Country) ?? '' }],
      });
      const result = [
        ...starts.map((r) => entry(r.country, r.org_number, r.name, suggestDescription(r))),
        ...m.candidates.map((c) =>
          entry(
            c.candidate.country,
            c.candidate.orgNumber,
            c.candidate.name,
            [c.candidate.places[0], c.features.status].filter(Boolean).join(' · '),
          ),
        ),
      ];
      const seen = new Set<string>();
      return { result: result.filter((e) => !seen.has(e.id) && seen.add(e.id)).slice(0, MAX_CANDIDATES) };
    },

    suggestProperty: (prefix: string) => ({
      result: byPrefix([...QUERY_PROPERTIES, ...EXTEND_PROPERTIES], prefix).map((p) => ({ id: p.id, name: p.name })),
    }),

    suggestType: (prefix: string) => ({ result: byPrefix(TYPES, prefix) }),
  };
}
