// POST /api/companies/match on generated Norwegian companies (loaded through the brreg jobs) and a
// real PRH company with a former name (loaded through the prh job): perturbed names find the right
// organisation number, former names count, unknown names match nothing, inactive companies score
// lower, every result is ranked by score with the match on top, bad input is a 400 with
// details[], and one call counts as one request.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldedWords, retrievalKey } from '../../src/domain/company-match/index.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { startFakePrh, type FakePrh } from '../fakes/prh/server.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const WOLT = '2646674-9';

let server: TestServer;
let prh: FakePrh;
let key: string;
/** Live Norwegian companies whose name no other company has, with their city. */
let unique: { name: string; org_number: string; city: string }[];

const match = (body: unknown, k = key) => http(server.url, 'POST', '/api/companies/match', { key: k, body });

beforeAll(async () => {
  prh = await startFakePrh();
  prh.companies = [JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0]];
  server = await startServer({ env: { PRH_BASE_URL: prh.baseUrl } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await runJob(server.ctx, 'prh', {}, () => undefined);
  await loadGeneratedCompanies(server, 400, 28);
  const r = await server.ctx.store.pool.query(
    `SELECT min(name) AS name, min(org_number) AS org_number, min(business_address_city) AS city
     FROM companies WHERE country = 'NO' AND NOT is_deleted AND business_address_city IS NOT NULL
     GROUP BY name_norm HAVING count(*) = 1 ORDER BY 2 LIMIT 40`,
  );
  unique = r.rows;
}, 300_000);
afterAll(async () => {
  await server?.close();
  await prh?.close();
});

describe('POST /api/companies/match', () => {
  it('finds the organisation number of an exact name, with the features that explain the score', async () => {
    const c = unique[0];
    const r = await match({ queries: [{ name: c.name }] });
    expect(r.status).toBe(200);
    const [res] = r.body.results;
    expect(res.query).toEqual({ name: c.name });
    expect(res.match).toMatchObject({ orgNumber: c.org_number, country: 'NO', name: c.name });
    expect(res.match.score).toBeGreaterThanOrEqual(0.8);
    expect(res.match.features).toMatchObject({
      nameSimilarity: 1,
      matchedName: c.name,
      formerName: false,
      place: 'unknown',
      status: 'active',
    });
    expect(res.candidates[0].orgNumber).toBe(c.org_number);
  });

  it('matches names with the legal form dropped or spelt out, in other case, and with the city added', async () => {
    const withForm = unique.filter((c) => / AS$/.test(c.name)).slice(0, 3);
    expect(withForm.length).toBeGreaterThan(0);
    const queries = withForm.flatMap((c) => [
      { name: c.name.replace(/ AS$/, '') },
      { name: c.name.replace(/ AS$/, ' aksjeselskap').toLowerCase() },
      { name: `${c.name.replace(/ AS$/, '')} ${c.city}` },
    ]);
    const r = await match({ queries });
    expect(r.status).toBe(200);
    r.body.results.forEach((res: any, i: number) => {
      expect(res.match?.orgNumber, queries[i].name).toBe(withForm[Math.floor(i / 3)].org_number);
    });
    // The city in the name is recognised as a place, not a name word.
    expect(r.body.results[2].match.features.place).toBe('match');
  });

  it('matches a name without its Nordic letters', async () => {
    const nordic = unique.find((c) => /[æøå]/i.test(c.name));
    expect(nordic).toBeDefined();
    const folded = nordic!.name
      .replace(/[Øø]/g, (x) => (x === 'Ø' ? 'O' : 'o'))
      .replace(/[Åå]/g, 'a')
      .replace(/[Ææ]/g, 'ae');
    const r = await match({ queries: [{ name: folded, country: 'NO' }] });
    expect(r.body.results[0].candidates[0].orgNumber).toBe(nordic!.org_number);
  });

  it('finds a one- or two-word name through a misspelt word, with its words folded as the store folds them', async () => {
    // The query side folds words in code (foldedWords) and must agree with company_name_words().
    const samples = ['Ærlig Sjøbygg AASEN & Co', 'Bjørk Ørsted-Æsøy AS', 'Café Über Fjøsnæs ÅS'];
    for (const name of samples) {
      const sql = await server.ctx.store.pool.query('SELECT company_name_words($1) AS w', [name]);
      expect(foldedWords(name), name).toEqual(sql.rows[0].w);
    }
    const short = unique.filter((c) => retrievalKey(c.name).split(' ').length === 2).slice(0, 3);
    expect(short.length).toBeGreaterThan(0);
    // Two letters of the longer word swapped: no stored name holds the misspelt word.
    const misspelt = short.map((c) => {
      const words = retrievalKey(c.name).split(' ');
      const i = words[0].length >= words[1].length ? 0 : 1;
      const w = words[i];
      words[i] = w.slice(0, 1) + w[2] + w[1] + w.slice(3);
      return words.join(' ');
    });
    const r = await match({ queries: misspelt.map((name) => ({ name })) });
    expect(r.status).toBe(200);
    r.body.results.forEach((res: any, i: number) =>
      expect(res.candidates[0]?.orgNumber, misspelt[i]).toBe(short[i].org_number),
    );
  });

  it('uses former names kept by the source (PRH names with end dates)', async () => {
    const r = await match({ queries: [{ name: 'Wolt Enterprises', country: 'FI', city: 'Helsinki' }] });
    expect(r.status).toBe(200);
    const [res] = r.body.results;
    expect(res.match).toMatchObject({ orgNumber: WOLT, country: 'FI', name: 'Wolt Oy' });
    expect(res.match.features).toMatchObject({
      formerName: true,
      matchedName: 'Wolt Enterprises Oy',
      place: 'match',
    });
    const names = await server.ctx.store.pool.query(
      `SELECT name, kind, valid_to::text FROM company_names WHERE org_number = $1`,
      [WOLT],
    );
    expect(names.rows).toEqual([{ name: 'Wolt Enterprises Oy', kind: 'former', valid_to: '2025-05-12' }]);
  });

  it('matches nothing for a name that no company has, and filters by country', async () => {
    const r = await match({
      queries: [{ name: 'Qwyzx Plimbertronics Holding' }, { name: unique[1].name, country: 'FI' }],
    });
    expect(r.body.results[0].match).toBeNull();
    expect(r.body.results[1].match).toBeNull();
    expect(r.body.results[1].candidates.every((c: any) => c.country === 'FI')).toBe(true);
  });

  it('scores deleted companies 0.15 lower unless the query includes them, and ranks them by that score', async () => {
    const c = unique[2];
    await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = true WHERE org_number = $1`, [c.org_number]);
    try {
      const r = await match({ queries: [{ name: c.name }, { name: c.name, includeInactive: true }], limit: 10 });
      const [live, all] = r.body.results;
      // An exact name scores 0.9; the status adjustment takes it below the threshold.
      expect(live.match).toBeNull();
      const at = live.candidates.findIndex((x: any) => x.orgNumber === c.org_number);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(live.candidates[at].features.status).toBe('deleted');
      expect(live.candidates[at].features.adjustments).toContainEqual({ feature: 'status', delta: -0.15 });
      expect(live.candidates[at].score).toBe(0.75);
      // Where its score puts it: above every candidate scoring less, live or not.
      expect(live.candidates.slice(0, at).every((x: any) => x.score >= 0.75)).toBe(true);
      expect(live.candidates.slice(at + 1).every((x: any) => x.score <= 0.75)).toBe(true);
      expect(all.match.orgNumber).toBe(c.org_number);
      expect(all.match.features.status).toBe('deleted');
    } finally {
      await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = false WHERE org_number = $1`, [
        c.org_number,
      ]);
    }
  });

  it('ranks every result by score (ties by orgNumber), with the match the top candidate', async () => {
    // Deleted companies among them: they used to be ranked below every live candidate, whatever their score.
    const deleted = unique.slice(10, 20).map((c) => c.org_number);
    await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = true WHERE org_number = ANY($1)`, [deleted]);
    try {
      // The register's commonest words, alone and in pairs: many candidates, close scores.
      const common = (
        await server.ctx.store.pool.query<{ w: string }>(
          `SELECT w FROM company_name_keys, unnest(words) w WHERE length(w) > 2 GROUP BY w ORDER BY count(*) DESC, w LIMIT 20`,
        )
      ).rows.map((x) => x.w);
      const queries = [
        ...unique.slice(0, 30).map((c) => ({ name: c.name })),
        ...unique.slice(0, 20).map((c) => ({ name: retrievalKey(c.name), city: c.city })),
        ...common.map((w) => ({ name: w })),
        ...common.flatMap((w, i) => [{ name: `${w} ${common[(i + 1) % common.length]}` }, { name: `${w} as` }]),
      ].slice(0, 100);
      for (const threshold of [0.5, 0.8]) {
        const r = await match({ queries, limit: 10, threshold });
        expect(r.status).toBe(200);
        let compared = 0;
        r.body.results.forEach((res: any, i: number) => {
          const at = `${queries[i].name} (threshold ${threshold})`;
          expect(res.status, at).toBe('done');
          res.candidates.slice(1).forEach((c: any, j: number) => {
            const prev = res.candidates[j];
            compared++;
            expect(prev.score > c.score || (prev.score === c.score && prev.orgNumber <= c.orgNumber), at).toBe(true);
          });
          if (res.match) {
            expect(res.match, at).toEqual(res.candidates[0]);
            expect(res.match.score, at).toBeGreaterThanOrEqual(threshold);
          } else if (res.candidates.length > 0) {
            const [top, second] = res.candidates;
            const clear = top.score >= threshold && (!second || top.score - second.score >= 0.05);
            expect(clear, at).toBe(false);
          }
        });
        console.log(`ranking: ${compared} neighbouring candidates compared`);
        expect(compared).toBeGreaterThan(100);
      }
    } finally {
      await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = false WHERE org_number = ANY($1)`, [
        deleted,
      ]);
    }
  });

  it('follows a rename and a purge: candidates are companies bearing the name now', async () => {
    const core = mapEnhet({
      ...JSON.parse(fixture('brreg/enheter-details-response.json')),
      navn: 'Qwyzx Fjellbyrå AS',
    });
    const top = async (name: string) =>
      (await match({ queries: [{ name, country: 'NO' }] })).body.results[0].candidates[0]?.orgNumber;
    await server.ctx.repos.companyWrites.write([{ core }]);
    expect(await top('Qwyzx Fjellbyraa')).toBe(core.orgNumber);
    await server.ctx.repos.companyWrites.write([{ core: { ...core, name: 'Plimbert Havtjenester AS' } }]);
    expect(await top('Plimbert Havtjenester')).toBe(core.orgNumber);
    expect(await top('Qwyzx Fjellbyraa')).toBeUndefined();
    expect(await server.ctx.repos.companyWrites.purge('NO', core.orgNumber)).toBe(true);
    expect(await top('Plimbert Havtjenester')).toBeUndefined();
    // Both names stay keys: a key no company bears any more finds no company.
    const keys = await server.ctx.store.pool.query(
      `SELECT name_norm FROM company_name_keys WHERE name_norm IN ('qwyzx fjellbyrå as', 'plimbert havtjenester as') ORDER BY 1`,
    );
    expect(keys.rows.map((r) => r.name_norm)).toEqual(['plimbert havtjenester as', 'qwyzx fjellbyrå as']);
  });

  it('rewards an agreeing postal code and domain, and penalises a different place', async () => {
    const c = unique[3];
    const row = (
      await server.ctx.store.pool.query(
        `SELECT business_address_postal_code AS pc FROM companies WHERE org_number = $1`,
        [c.org_number],
      )
    ).rows[0];
    const r = await match({
      queries: [
        { name: c.name },
        { name: c.name, postalCode: row.pc, city: c.city },
        { name: c.name, city: 'Nowhere-by-the-sea' },
      ],
    });
    const [plain, agreeing, elsewhere] = r.body.results.map((x: any) => x.candidates[0]);
    expect(agreeing.score).toBeGreaterThan(plain.score);
    expect(agreeing.features).toMatchObject({ postalCode: 'match', place: 'match' });
    expect(elsewhere.features.place).toBe('mismatch');
    expect(elsewhere.score).toBeLessThan(plain.score);
  });

  it('counts one call as one request, whatever the number of queries', async () => {
    const k = (await createKey(server, { tier: 'internal' })).raw;
    const r = await match({ queries: unique.slice(0, 20).map((c) => ({ name: c.name })) }, k);
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(20);
    const u = await http(server.url, 'GET', '/api/keys/usage', { key: k });
    expect(u.body.usage.today).toBe(1);
  });

  it('refuses bad input with 400 and details[]', async () => {
    const many = Array.from({ length: 101 }, () => ({ name: 'x' }));
    for (const body of [
      { queries: [] },
      { queries: many },
      { queries: [{ name: '' }] },
      { queries: [{ name: 'Fjord', country: 'DE' }] },
      { queries: [{ name: 'Fjord' }], limit: 11 },
      { queries: [{ name: 'Fjord' }], threshold: 2 },
    ]) {
      const r = await match(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.details.length).toBeGreaterThan(0);
    }
    const punct = await match({ queries: [{ name: '!!!' }] });
    expect(punct.status).toBe(400);
    expect(punct.body.details[0].path).toBe('body.queries.0.name');
  });

  it('refuses a call without a key', async () => {
    const r = await http(server.url, 'POST', '/api/companies/match', { body: { queries: [{ name: 'x' }] } });
    expect(r.status).toBe(401);
  });
});
