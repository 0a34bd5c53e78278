// The typed client's KYB methods against the real server, on data loaded through the real jobs:
// two register years of Aksjonærregisteret (shareholders job) for companies.owners and
// companies.ownershipChanges, a sanctions list (sanctions job) for screening.match and
// screening.audit, and evidence packs (create, list, get, pdf) with the JWKS that verifies them,
// the registry's live status from a loopback stand-in. Each 4xx surfaces as NcdApiError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdApiError, NcdClient } from '../../clients/js/src/index.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { byCompany, byPerson, company, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { startEnhetFake } from '../fixtures/evidence/fake-brreg.ts';
import { ftm, ndjson, removeListFiles, writeListFile } from '../fixtures/screening/ftm.ts';
import { createKey } from '../helpers/keys.ts';
import { personRole } from '../helpers/roles.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const quiet = () => undefined;
const [A, HOLD] = [org(730), org(731)];
let server: TestServer;
let brreg: Awaited<ReturnType<typeof startEnhetFake>>;
let client: NcdClient;

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as NcdApiError,
  );

beforeAll(async () => {
  brreg = await startEnhetFake({ [A]: 'KLIENT KYB AS', [HOLD]: 'KLIENT HOLDING AS' });
  server = await startServer({ env: { BRREG_BASE_URL: brreg.url } });
  client = new NcdClient({ baseUrl: server.url, apiKey: (await createKey(server, { tier: 'internal' })).raw });
  await server.ctx.repos.companyWrites.write([
    { ...company(A, 'KLIENT KYB AS'), roles: [personRole('DAGL', 'Dmitrij', 'Zjuravljov', 1970)] },
    { ...company(HOLD, 'KLIENT HOLDING AS'), roles: [] },
  ]);
  // The holding grows from 50 % to 70 % of A between the two register years.
  for (const [year, holding] of [
    [2023, 500],
    [2024, 700],
  ] as const) {
    const file = writeRegister(`aksjeeierbok_${year}.csv`, [
      byCompany(A, 'KLIENT KYB AS', HOLD, 'KLIENT HOLDING AS', holding, 1000),
      byPerson(A, 'KLIENT KYB AS', 'KARI NORDMANN', 1975, 1000 - holding, 1000),
      byPerson(HOLD, 'KLIENT HOLDING AS', 'PER EIER', 1960, 100, 100),
    ]);
    expect(await runJob(server.ctx, 'shareholders', { file }, quiet)).toMatchObject({ status: 'ok' });
  }
  const list = ndjson(
    [
      {
        id: 'NK-zh',
        schema: 'Person',
        caption: 'Дмитрий Сергеевич Журавлёв',
        birthDate: '1970-05-12',
        country: 'ru',
        datasets: ['eu_fsf'],
      },
    ].map(ftm),
  );
  await runJob(
    server.ctx,
    'sanctions',
    { file: writeListFile('client-kyb.ftm.json', list), list: 'client-kyb' },
    quiet,
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await brreg?.close();
  removeRegisters();
  removeListFiles();
});

describe('ownership', () => {
  it('companies.owners: the ultimate owners through the holding, persons on request', async () => {
    const r = await client.companies.owners(A, { threshold: 0, includePersons: true });
    expect(r).toMatchObject({ basis: 'shareholder-register', year: 2024, country: 'NO' });
    const byName = new Map(r.candidates.map((c) => [c.name, c]));
    expect(byName.get('PER EIER')).toMatchObject({ kind: 'person', birthYear: 1960, effectivePct: 70 });
    expect(byName.get('KARI NORDMANN')).toMatchObject({ kind: 'person', effectivePct: 30 });
    expect(byName.get('PER EIER')!.paths[0][0]).toMatchObject({ orgNumber: HOLD, pct: 70, year: 2024 });
  });

  it('companies.ownershipChanges: the holding rose by 20 pp', async () => {
    const r = await client.companies.ownershipChanges(A, { fromYear: 2023, toYear: 2024 });
    expect(r).toMatchObject({ basis: 'shareholder-register', years: [2023, 2024] });
    expect(r.changes[0]).toMatchObject({ fromYear: 2023, toYear: 2024 });
    expect(r.changes[0].rose).toEqual([
      expect.objectContaining({ orgNumber: HOLD, pctBefore: 50, pctAfter: 70, changePp: 20 }),
    ]);
  });

  it('a bad org number is an NcdApiError with details', async () => {
    const err = await failure(client.companies.owners('123'));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details[0].path).toContain('orgNumber');
  });
});

describe('screening', () => {
  it('screening.match finds the listed person across scripts; screening.audit records the call', async () => {
    const r = await client.screening.match({
      queries: { q1: { schema: 'Person', name: 'Dmitrij Zjuravljov', birthDate: '1970-05-12' } },
    });
    expect(r.lists).toEqual([expect.objectContaining({ name: 'client-kyb', entityCount: 1 })]);
    expect(r.responses.q1.results[0]).toMatchObject({ id: 'NK-zh', list: 'client-kyb', match: true });

    const rows = await client.screening.audit({ from: '2000-01-01T00:00:00Z' }).toArray();
    const matchRow = rows.find((row) => row.operation === 'match');
    expect(matchRow).toMatchObject({ via: 'rest', operation: 'match', matchCount: 1 });
    expect(JSON.stringify(rows)).not.toContain('1970-05-12');
  });

  it('an empty query set is an NcdApiError with details', async () => {
    const err = await failure(client.screening.match({ queries: { q1: { schema: 'Person', name: '' } } }));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details.length).toBeGreaterThan(0);
  });
});

describe('evidence', () => {
  it('create, list, get, pdf and the JWKS that holds the signing key', async () => {
    const pack = await client.evidence.create(A, { purpose: 'onboarding', reference: 'CLIENT-1' });
    expect(pack).toMatchObject({
      format: 'ncd-evidence-pack/1',
      subject: { orgNumber: A, country: 'NO', name: 'KLIENT KYB AS' },
      purpose: 'onboarding',
      reference: 'CLIENT-1',
      signature: { alg: 'Ed25519' },
    });
    expect(pack.id).toMatch(/^ev_[0-9a-f]{24}$/);
    expect(pack.verdict.screening).toMatch(/^1 possible match to review/);

    const listed = await client.evidence.list({ orgNumber: A }).toArray();
    expect(listed).toEqual([expect.objectContaining({ id: pack.id, hash: pack.hash, reference: 'CLIENT-1' })]);
    expect(await client.evidence.get(pack.id)).toEqual(pack);

    const pdf = await client.evidence.pdf(pack.id);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');

    const anonymous = new NcdClient({ baseUrl: server.url });
    const jwks = await anonymous.evidence.jwks();
    expect(jwks.keys.map((k) => k.kid)).toContain(pack.signature.kid);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
  });

  it('a malformed pack id is an NcdApiError with details', async () => {
    const err = await failure(client.evidence.get('ev_nope'));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details[0].path).toContain('id');
  });
});
