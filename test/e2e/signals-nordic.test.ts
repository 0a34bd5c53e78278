// The signals of Danish and Finnish companies on the lookup: ownershipConcentrationPct from CVR's
// owner bands at their lower bound (said so in the explanation), isForeignOwned null where the
// register gives no owner country, and isInDebtNegotiation from each registry's status (CVR
// REKONSTRUKTION, PRH situation SANE). Companies come through the real jobs from the recorded
// fixtures (test/fixtures/cvr/virksomheder.ndjson, the PRH Wolt record); the restructuring cases
// are those fixtures with one status changed in the test, as marked below.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { startFakePrh, type FakePrh } from '../fakes/prh/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const read = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const AS = '35540008'; // owned by APS (CVR EJERREGISTER band) in the fixture
const ENK = '12340001'; // no owner register; its status is changed to UNDER REKONSTRUKTION below
const WOLT = '2646674-9';

let cvr: FakeCvr;
let prh: FakePrh;
let server: TestServer;
let key: string;

beforeAll(async () => {
  cvr = await startFakeCvr();
  cvr.hits = read('cvr/virksomheder.ndjson')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .map((h) => {
      const v = h._source.Vrvirksomhed;
      if (v.cvrNummer !== Number(ENK) && v.cvrNummer !== ENK) return h;
      // Changed in the test: the sole trader is under reconstruction (CVR's status word).
      v.virksomhedsstatus = [
        { status: 'UNDER REKONSTRUKTION', periode: { gyldigFra: '2025-01-02', gyldigTil: null }, sidstOpdateret: null },
      ];
      return h;
    });
  prh = await startFakePrh();
  prh.companies = [JSON.parse(read('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0]];
  server = await startServer({ env: { ...cvr.env, PRH_BASE_URL: prh.baseUrl } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  expect(await runJob(server.ctx, 'cvr', {}, () => undefined)).toMatchObject({ status: 'ok' });
  expect(await runJob(server.ctx, 'prh', {}, () => undefined)).toMatchObject({ status: 'ok' });
});
afterAll(async () => {
  await server?.close();
  await cvr?.close();
  await prh?.close();
});

const get = async (p: string) => {
  const r = await http(server.url, 'GET', p, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

describe('signals beyond Norway', () => {
  it("DK: the largest owner's CVR band at its lower bound; no owner country, so isForeignOwned is null", async () => {
    // The fixture's EJERREGISTER: Kystholding ApS at EJERANDEL_PROCENT 0.6667 (the band 66.67–90 %)
    // and a person at 0.1 (10–15 %). The largest band's lower bound: 66.67.
    const r = await get(`/api/companies/${AS}?country=DK`);
    expect(r.signals.ownershipConcentrationPct).toBe(66.67);
    expect(r.signals.explanation.ownershipConcentrationPct).toMatchObject({
      inputs: { largestOwnerPct: 66.67, bandHighPct: 90 },
      year: null,
    });
    expect(r.signals.explanation.ownershipConcentrationPct.rule).toContain('lower bound');
    expect(r.signals.isForeignOwned).toBeNull();
    expect(r.signals.isInDebtNegotiation).toBe(false);
  });

  it('DK: a company under reconstruction is in debt negotiation; one without owners has no concentration', async () => {
    const r = await get(`/api/companies/${ENK}?country=DK`);
    expect(r.signals).toMatchObject({
      isInDebtNegotiation: true,
      ownershipConcentrationPct: null,
      isForeignOwned: null,
    });
    expect(r.signals.explanation.isInDebtNegotiation.inputs).toEqual({ isInDebtNegotiation: true });
  });

  it('FI: no open restructuring situation is false; no shareholder register is null', async () => {
    const r = await get(`/api/companies/${WOLT}?country=FI`);
    expect(r.signals).toMatchObject({
      isInDebtNegotiation: false,
      ownershipConcentrationPct: null,
      isForeignOwned: null,
    });
  });
});
