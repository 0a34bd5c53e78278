// Company by domain or e-mail: GET /api/companies?domain= reduces a URL, a www. host or a
// subdomain to the registrable domain and finds the company by its registry homepage, its
// primaryDomain or its enrichedDomains; POST /api/companies/match and MCP match_companies take
// `domain` or `email` instead of a name and rank candidates by that evidence; a free-mail address
// matches nothing and says why. Companies are hand-written Enhetsregisteret records in the
// documented JSON shape (FORMATS.md, brreg enheter), written through the brreg mapping.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE } from '../../src/domain/company.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import type { BrregEnhet } from '../../src/sources/brreg/types.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let freeKey: string;
const org = (i: number) => orgNumberFor(i, 84_500_000);
const [BYGG, NORDLYS, NORDLYS_EIENDOM, HAVBRIS, AGENCY_CLIENT, OTHER] = [
  org(1),
  org(2),
  org(3),
  org(4),
  org(5),
  org(6),
];

const enhet = (orgNumber: string, navn: string, hjemmeside: string | undefined): BrregEnhet => ({
  organisasjonsnummer: orgNumber,
  navn,
  organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
  naeringskode1: { kode: '41.200', beskrivelse: 'Oppføring av bygninger' },
  antallAnsatte: 12,
  hjemmeside,
  forretningsadresse: {
    adresse: ['Strandkaien 2'],
    postnummer: '5013',
    poststed: 'BERGEN',
    kommune: 'BERGEN',
    kommunenummer: '4601',
    land: 'Norge',
    landkode: 'NO',
  },
});

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
  freeKey = (await createKey(server)).raw;
  const write = (e: BrregEnhet) => ({ core: mapEnhet(e), roles: [], financials: [], fetched: true });
  await server.ctx.repos.companyWrites.write([
    // A homepage with scheme, www. and a path.
    write(enhet(BYGG, 'FJORDBYGG DOMENE AS', 'https://www.fjordbygg-domene.no/om-oss')),
    // A homepage on a subdomain; its sister company names the same domain, bare.
    write(enhet(NORDLYS, 'NORDLYS DOMENE AS', 'shop.nordlys-domene.no')),
    write(enhet(NORDLYS_EIENDOM, 'NORDLYS DOMENE EIENDOM AS', 'nordlys-domene.no')),
    // No homepage in the registry: only the enrichment pipeline knows its domain.
    write(enhet(HAVBRIS, 'HAVBRIS DOMENE AS', undefined)),
    // A private-suffix host (github.io is on the Public Suffix List): its own registrable domain.
    write(enhet(AGENCY_CLIENT, 'KLIENT DOMENE AS', 'klient-domene.github.io')),
    write(enhet(OTHER, 'ANNET DOMENE AS', 'www.annet-domene.no')),
  ]);
  const [row] = await server.ctx.repos.companyReads.findRows('NO', [HAVBRIS]);
  await server.ctx.repos.webProfile.complete(
    row.id,
    {
      primaryDomain: 'havbris-domene.no',
      enrichedDomains: ['havbris-domene.no', 'havbris.com'],
      linkedinHandle: null,
      facebookHandle: null,
      instagramHandle: null,
      twitterHandle: null,
      technologies: [],
      technologyNames: [],
      hasAdPixel: false,
      sources: { domain: SOURCE.webProfile },
    },
    new Date(),
  );
});
afterAll(async () => {
  await server?.close();
});

const search = (query: string, k = key) => http(server.url, 'GET', `/api/companies?${query}`, { key: k });
const orgNumbers = (body: { data: { orgNumber: string }[] }) => body.data.map((c) => c.orgNumber).sort();
const match = (body: unknown) => http(server.url, 'POST', '/api/companies/match', { key, body });

describe('GET /api/companies?domain=', () => {
  it('finds a company by its homepage given with https://www., a path, or a subdomain', async () => {
    for (const d of [
      'fjordbygg-domene.no',
      'https://www.fjordbygg-domene.no',
      'https://www.fjordbygg-domene.no/kontakt?x=1',
      'shop.fjordbygg-domene.no',
      'FJORDBYGG-DOMENE.NO.',
    ]) {
      const r = await search(`domain=${encodeURIComponent(d)}`);
      expect(r.status, `${d}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(orgNumbers(r.body), d).toEqual([BYGG]);
    }
  });

  it('reduces a registry homepage on a subdomain to its registrable domain', async () => {
    const r = await search('domain=nordlys-domene.no');
    expect(r.status).toBe(200);
    // shop.nordlys-domene.no and nordlys-domene.no are both nordlys-domene.no.
    expect(orgNumbers(r.body)).toEqual([NORDLYS, NORDLYS_EIENDOM].sort());
    // A subdomain in the query means its registrable domain, not only that host.
    expect(orgNumbers((await search('domain=www.nordlys-domene.no')).body)).toEqual([NORDLYS, NORDLYS_EIENDOM].sort());
  });

  it('finds by primaryDomain and enrichedDomains, and rows carry the drop-in fields', async () => {
    const r = await search('domain=havbris.com');
    expect(orgNumbers(r.body)).toEqual([HAVBRIS]);
    expect(orgNumbers((await search('domain=https://havbris-domene.no/')).body)).toEqual([HAVBRIS]);
    expect(r.body.data[0]).toMatchObject({
      primaryDomain: 'havbris-domene.no',
      sizeClass: 'small',
      naceName: expect.any(String),
      businessAddressMuni: 'Bergen',
    });
  });

  it('is public-suffix aware: a private suffix host is its own domain, the suffix itself is no domain', async () => {
    expect(orgNumbers((await search('domain=klient-domene.github.io')).body)).toEqual([AGENCY_CLIENT]);
    expect(orgNumbers((await search('domain=annen-klient.github.io')).body)).toEqual([]);
    const suffix = await search('domain=github.io');
    expect(suffix.status).toBe(400);
    expect(suffix.body.details).toEqual([expect.objectContaining({ path: 'query.domain' })]);
    expect((await search('domain=not%20a%20domain')).status).toBe(400);
  });

  it('combines with other filters, counts as a filter for the free tier, and a free-mail domain finds nothing', async () => {
    expect(orgNumbers((await search('domain=nordlys-domene.no&q=eiendom')).body)).toEqual([NORDLYS_EIENDOM]);
    const free = await search('domain=fjordbygg-domene.no', freeKey);
    expect(free.status).toBe(200);
    expect(orgNumbers(free.body)).toEqual([BYGG]);
    const gmail = await search('domain=gmail.com');
    expect(gmail.status).toBe(200);
    expect(gmail.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  });
});

describe('POST /api/companies/match by domain or e-mail', () => {
  it('matches a domain by the homepage, and ranks with the evidence', async () => {
    const r = await match({ queries: [{ domain: 'https://www.fjordbygg-domene.no/om-oss' }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [res] = r.body.results;
    expect(res.domain).toBe('fjordbygg-domene.no');
    // homepage 0.55 + name likeness 1 ("fjordbygg" is the name's words joined) × 0.3 = 0.85.
    expect(res.match).toMatchObject({ orgNumber: BYGG, score: 0.85 });
    expect(res.match.features.domainEvidence).toEqual({
      domain: 'fjordbygg-domene.no',
      homepage: true,
      enrichedDomain: false,
      nameLikeness: 1,
    });
    expect(res.match.features.adjustments).toEqual([
      { feature: 'homepage', delta: 0.55 },
      { feature: 'nameLikeness', delta: 0.3 },
    ]);
  });

  it("finds a company by an e-mail address's domain, and by a domain only the enrichment pipeline confirmed", async () => {
    const r = await match({
      queries: [{ email: 'post@kontor.fjordbygg-domene.no' }, { email: 'Ola.Nordmann@havbris.com' }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [bygg, havbris] = r.body.results;
    expect(bygg.match?.orgNumber).toBe(BYGG);
    expect(bygg.domain).toBe('fjordbygg-domene.no');
    expect(havbris.candidates[0]).toMatchObject({ orgNumber: HAVBRIS });
    // enrichedDomain 0.35 + name likeness ("havbris" is the distinctive first word) 0.3 = 0.65:
    // a candidate, below the auto-match threshold.
    expect(havbris.candidates[0].score).toBe(0.65);
    expect(havbris.candidates[0].features.domainEvidence).toMatchObject({ homepage: false, enrichedDomain: true });
    expect(havbris.match).toBeNull();
  });

  it('ranks two companies on one domain by how much their names look like it', async () => {
    const r = await match({ queries: [{ domain: 'nordlys-domene.no' }] });
    const [res] = r.body.results;
    expect(res.candidates.map((c: any) => c.orgNumber)).toEqual([NORDLYS, NORDLYS_EIENDOM]);
    const [a, b] = res.candidates;
    expect(a.features.domainEvidence.nameLikeness).toBe(1);
    expect(b.features.domainEvidence.nameLikeness).toBeLessThan(1);
    expect(a.score).toBeGreaterThan(b.score);
  });

  it('a free-mail or ISP address matches nothing, and says why', async () => {
    const r = await match({
      queries: [
        { email: 'ola@gmail.com' },
        { domain: 'online.no' },
        { email: 'kari@live.se', name: 'Annet Domene AS' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [gmail, online, named] = r.body.results;
    expect(gmail).toMatchObject({ domain: 'gmail.com', match: null, candidates: [] });
    expect(gmail.reason.code).toBe('free_mail_domain');
    expect(gmail.reason.message).toContain('gmail.com');
    expect(online).toMatchObject({ match: null, candidates: [], reason: { code: 'free_mail_domain' } });
    // With a name beside it, the name is matched and the domain is left out of the score.
    expect(named.reason.code).toBe('free_mail_domain');
    expect(named.match?.orgNumber).toBe(OTHER);
    expect(named.match.features.domain).toBe('unknown');
  });

  it('a name with a domain gets the domain agreement, with its evidence', async () => {
    const r = await match({ queries: [{ name: 'Nordlys Domene', domain: 'www.nordlys-domene.no' }] });
    const [res] = r.body.results;
    expect(res.match).toMatchObject({ orgNumber: NORDLYS });
    expect(res.match.features.domain).toBe('match');
    expect(res.match.features.domainEvidence).toMatchObject({ domain: 'nordlys-domene.no', homepage: true });
  });

  it('rejects a query with neither name, domain nor email, or with a bad domain or address, with details', async () => {
    for (const [query, path] of [
      [{ city: 'Bergen' }, 'body.queries.0'],
      [{ domain: 'github.io' }, 'body.queries.0.domain'],
      [{ email: 'no-at-sign.example.no' }, 'body.queries.0.email'],
    ] as const) {
      const r = await match({ queries: [query] });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.details).toEqual([expect.objectContaining({ path })]);
    }
  });
});

describe('MCP match_companies', () => {
  it('accepts the same domain and e-mail queries', async () => {
    const client = new Client({ name: 'company-domain-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const r = (await client.callTool({
        name: 'match_companies',
        arguments: { queries: [{ email: ' post@fjordbygg-domene.no ' }, { email: 'ola@hotmail.com' }] },
      })) as CallToolResult;
      expect(r.isError ?? false).toBe(false);
      const out = r.structuredContent as any;
      expect(out.results[0].match.orgNumber).toBe(BYGG);
      expect(out.results[1]).toMatchObject({ match: null, candidates: [], reason: { code: 'free_mail_domain' } });
      const rest = await match({ queries: [{ email: 'post@fjordbygg-domene.no' }, { email: 'ola@hotmail.com' }] });
      expect(out.results.map((x: any) => x.match?.orgNumber ?? null)).toEqual(
        rest.body.results.map((x: any) => x.match?.orgNumber ?? null),
      );
    } finally {
      await client.close();
    }
  });
});
