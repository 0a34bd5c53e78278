// KYB evidence packs over real HTTP: a company with roles, shareholders (owners) and a screening
// hit, loaded through the real shareholders and sanctions jobs; the pack's parts with their
// sources and retrieval times; an independent Ed25519 check (node:crypto + the canonicalize
// package, not our code) and `ncd evidence verify`; a flipped byte fails; another project's key
// gets 404; no full birth date or national id in a pack; free keys' 10 packs a day; the
// screening audit trail (REST and MCP) with list versions; rotation keeps old keys in JWKS.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPem } from '../../src/domain/evidence/index.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { byCompany, byPerson, company, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { startEnhetFake } from '../fixtures/evidence/fake-brreg.ts';
import { ftm, ndjson, removeListFiles, writeListFile } from '../fixtures/screening/ftm.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { personRole } from '../helpers/roles.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';

const quiet = () => undefined;
const [A, HOLD] = [org(700), org(701)];
let server: TestServer;
let database: TestDatabase;
let brreg: Awaited<ReturnType<typeof startEnhetFake>>;
let key: string;
let other: string;
const tmp = mkdtempSync(path.join(tmpdir(), 'ncd-evidence-'));

beforeAll(async () => {
  brreg = await startEnhetFake({ [A]: 'FJORDLYS EVIDENS AS', [HOLD]: 'EVIDENS HOLDING AS' });
  database = await createTestDatabase();
  server = await startServer({ database, env: { BRREG_BASE_URL: brreg.url } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  other = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    {
      ...company(A, 'FJORDLYS EVIDENS AS'),
      roles: [personRole('DAGL', 'Dmitrij', 'Zjuravljov', 1970), personRole('LEDE', 'Kari', 'Nordmann', 1975)],
    },
    { ...company(HOLD, 'EVIDENS HOLDING AS'), roles: [] },
  ]);
  await runJob(
    server.ctx,
    'shareholders',
    {
      file: writeRegister('aksjeeierbok_2024.csv', [
        byCompany(A, 'FJORDLYS EVIDENS AS', HOLD, 'EVIDENS HOLDING AS', 700, 1000),
        byPerson(A, 'FJORDLYS EVIDENS AS', 'KARI NORDMANN', 1975, 300, 1000),
        byPerson(HOLD, 'EVIDENS HOLDING AS', 'PER EIER', 1960, 100, 100),
      ]),
    },
    quiet,
  );
  await runJob(
    server.ctx,
    'sanctions',
    {
      file: writeListFile(
        'evidence.ftm.json',
        ndjson(
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
        ),
      ),
      list: 'e2e-evidence',
    },
    quiet,
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await brreg?.close();
  await database?.drop();
  removeRegisters();
  removeListFiles();
});

const create = (k: string, body: Record<string, unknown> = {}, n = A) =>
  fetch(`${server.url}/api/companies/${n}/evidence`, {
    method: 'POST',
    headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Hash and signature checked without our code: the canonicalize package and node:crypto. */
async function independentCheck(text: string): Promise<boolean> {
  const pack = JSON.parse(text);
  const { hash, signature, ...rest } = pack;
  const bytes = canonicalize(rest)!;
  if (createHash('sha256').update(bytes).digest('hex') !== hash.value) return false;
  const jwks = (await http(server.url, 'GET', '/.well-known/jwks.json')).body;
  const jwk = jwks.keys.find((k: { kid: string }) => k.kid === signature.kid);
  if (!jwk) return false;
  const pub = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(null, Buffer.from(bytes), pub, Buffer.from(signature.value, 'base64url'));
}

let text: string;
let pack: any;

describe('POST /api/companies/{orgNumber}/evidence', () => {
  it('holds every part, each with its source and retrieval time, and the screening hit and owners', async () => {
    const res = await create(key, { purpose: 'onboarding', reference: 'CASE-2026-17' });
    expect(res.status).toBe(201);
    expect(res.headers.get('server-timing')).toMatch(/^live;dur=[\d.]+, build;dur=[\d.]+$/);
    text = await res.text();
    pack = JSON.parse(text);
    expect(text).toBe(canonicalize(pack)); // the served bytes are the canonical form
    expect(pack).toMatchObject({
      format: 'ncd-evidence-pack/1',
      id: expect.stringMatching(/^ev_[0-9a-f]{24}$/),
      subject: { orgNumber: A, country: 'NO', name: 'FJORDLYS EVIDENS AS' },
      purpose: 'onboarding',
      reference: 'CASE-2026-17',
      requester: { keyPrefix: key.slice(0, 12), via: 'rest' },
      software: { name: 'nordic-company-data', version: expect.any(String) },
      hash: { alg: 'sha-256', value: expect.stringMatching(/^[0-9a-f]{64}$/) },
      signature: { alg: 'Ed25519', kid: expect.any(String), value: expect.any(String) },
    });
    const names = ['company', 'roles', 'shareholders', 'ultimateOwners', 'group', 'screening', 'registryStatus'];
    expect(Object.keys(pack.parts).sort()).toEqual([...names].sort());
    for (const n of names) {
      expect(pack.parts[n].source, n).toEqual(expect.any(String));
      expect(pack.parts[n].retrievedAt, n).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(pack.sources).toContainEqual({
        part: n,
        source: pack.parts[n].source,
        url: pack.parts[n].url,
        retrievedAt: pack.parts[n].retrievedAt,
      });
    }
    expect(pack.parts.company.data._sources).toBeDefined();
    expect(pack.parts.roles.data.map((r: any) => r.personLastName)).toEqual(['Zjuravljov', 'Nordmann']);
    // The live status came from the registry (our loopback stand-in) at pack time.
    expect(pack.parts.registryStatus).toMatchObject({
      url: `${brreg.url}/enhetsregisteret/api/enheter/${A}`,
    });
    expect(pack.parts.registryStatus.note).toMatch(/^Fetched live/);
    expect(brreg.requests).toContain(`/enhetsregisteret/api/enheter/${A}`);
    // Owners: the holding's person at 70 % × 100 %, and Kari Nordmann at 30 %.
    const candidates = pack.parts.ultimateOwners.data.candidates.map((c: any) => [c.name, c.effectivePct]);
    expect(candidates).toEqual(
      expect.arrayContaining([
        ['PER EIER', 70],
        ['KARI NORDMANN', 30],
      ]),
    );
    // Screening: the CEO's transliterated name hits the listed person; the list's version and sync.
    const scr = pack.parts.screening.data;
    expect(scr.matches).toEqual([expect.objectContaining({ entityId: 'NK-zh', list: 'e2e-evidence' })]);
    expect(scr.lists).toEqual([expect.objectContaining({ name: 'e2e-evidence', lastSync: expect.any(String) })]);
    expect(pack.verdict.screening).toMatch(/^1 possible match to review: Dmitrij Zjuravljov ~ /);
    expect(pack.verdict.owners).toMatch(/ultimate-owner candidate/);
    expect(pack.verdict.registryStatus).toMatch(/^Active, no bankruptcy or dissolution .*live from the registry/);
  });

  it('never holds a full birth date or a national id', () => {
    expect(text).not.toContain('1970-05-12');
    // A fødselsnummer is 11 digits standing alone. The bounds exclude letters too: the pack's
    // hex hash and ids are random, and one in ten holds a run of 11 decimal digits by chance.
    expect(text).not.toMatch(/(?<![0-9A-Za-z])\d{11}(?![0-9A-Za-z])/);
    expect(
      JSON.stringify([pack.parts.roles, pack.parts.shareholders, pack.parts.ultimateOwners, pack.parts.screening]),
    ).not.toMatch(/\d{4}-\d{2}-\d{2}(?!T)/);
  });

  it('verifies independently and with ncd evidence verify (JWKS and key file); a flipped byte fails', async () => {
    expect(await independentCheck(text)).toBe(true);
    // GET serves the same bytes.
    const got = await fetch(`${server.url}/api/evidence/${pack.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(text);

    const file = path.join(tmp, 'pack.json');
    writeFileSync(file, text);
    const jwks = `${server.url}/.well-known/jwks.json`;
    const ok = await runProcess([CLI, 'evidence', 'verify', file, '--jwks', jwks], {});
    expect(ok.stdout).toContain('VERIFIED: hash and Ed25519 signature hold');
    expect(ok.stdout).toContain(`ok   hash: sha-256 ${pack.hash.value}`);
    expect(ok.code).toBe(0);

    const jwk = (await http(server.url, 'GET', '/.well-known/jwks.json')).body.keys.find(
      (k: any) => k.kid === pack.signature.kid,
    );
    const keyFile = path.join(tmp, 'key.jwk');
    writeFileSync(keyFile, JSON.stringify(jwk));
    expect((await runProcess([CLI, 'evidence', 'verify', file, '--key', keyFile], {})).code).toBe(0);

    // Flip bytes: inside a name, inside the hash, inside the signature, a key letter.
    const at = (needle: string) => text.indexOf(needle);
    const flips = [
      at('FJORDLYS') + 1,
      at(pack.hash.value) + 5,
      at(pack.signature.value) + 10,
      text.length - 2,
      at('"parts"') + 2,
    ];
    for (const i of flips) {
      const bad = text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1);
      expect(await independentCheck(bad).catch(() => false), `byte ${i}`).toBe(false);
      const badFile = path.join(tmp, `bad-${i}.json`);
      writeFileSync(badFile, bad);
      const r = await runProcess([CLI, 'evidence', 'verify', badFile, '--key', keyFile, '--json'], {});
      expect(r.code, `byte ${i}: ${r.stdout}`).toBe(1);
      expect(JSON.parse(r.stdout).verified).toBe(false);
    }
  }, 120_000);

  it("another project's key gets 404 for the pack, its PDF and in its list", async () => {
    for (const p of [`/api/evidence/${pack.id}`, `/api/evidence/${pack.id}.pdf`]) {
      const r = await http(server.url, 'GET', p, { key: other });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('evidence_not_found');
    }
    expect((await http(server.url, 'GET', '/api/evidence', { key: other })).body.data).toEqual([]);
    const mine = await http(server.url, 'GET', `/api/evidence?orgNumber=${A}&from=2000-01-01T00:00:00Z`, { key });
    expect(mine.body.data).toEqual([
      expect.objectContaining({ id: pack.id, hash: pack.hash, reference: 'CASE-2026-17' }),
    ]);
    expect(mine.body.data[0].verdict.screening).toBe(pack.verdict.screening);
  });

  it('refuses a bad org number or pack id with 400 and details', async () => {
    const bad = await create(key, {}, '123456789');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).details[0].path).toBe('params.orgNumber');
    expect((await http(server.url, 'GET', '/api/evidence/nope', { key })).status).toBe(400);
  });
});

describe('limits', () => {
  it('free keys may create 10 packs a day; a pack counts as one request', async () => {
    const free = (await createKey(server)).raw;
    const before = (await http(server.url, 'GET', '/api/keys/usage', { key: free })).body.usage.today;
    for (let i = 0; i < 10; i++) expect((await create(free)).status).toBe(201);
    const after = (await http(server.url, 'GET', '/api/keys/usage', { key: free })).body.usage.today;
    expect(after - before).toBe(10); // ten packs, one request each (the usage call is not counted)
    const eleventh = await create(free);
    expect(eleventh.status).toBe(429);
    expect(((await eleventh.json()) as any).code).toBe('evidence_pack_limit');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

describe('GET /api/screening/audit', () => {
  it('lists every screening call, REST, MCP and evidence, with list versions; no full birth date', async () => {
    expect((await http(server.url, 'GET', `/api/screening/${A}`, { key })).status).toBe(200);
    const matched = await http(server.url, 'POST', '/api/screening/match', {
      key,
      body: { queries: { q1: { name: 'Dmitrij Zjuravljov', schema: 'Person', birthDate: '1970-05-12' } } },
    });
    expect(matched.status).toBe(200);
    const client = new Client({ name: 'evidence-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const viaMcp = (await client.callTool({ name: 'screen_company', arguments: { orgNumber: A } })) as CallToolResult;
    expect(viaMcp.isError).toBeFalsy();
    const made = (await client.callTool({
      name: 'create_evidence_pack',
      arguments: { orgNumber: A, reference: 'MCP-1' },
    })) as CallToolResult;
    expect(made.structuredContent).toMatchObject({
      id: expect.stringMatching(/^ev_/),
      hash: { alg: 'sha-256' },
      verdict: { possibleMatches: 1 },
    });
    await client.close();

    const audit = await http(server.url, 'GET', '/api/screening/audit?limit=100', { key });
    expect(audit.status).toBe(200);
    const rows = audit.body.data as any[];
    expect(rows.map((r) => [r.via, r.operation])).toEqual([
      ['evidence', 'company'],
      ['rest', 'company'],
      ['rest', 'match'],
      ['mcp', 'company'],
      ['evidence', 'company'],
    ]);
    for (const r of rows) {
      expect(r.lists).toEqual([
        expect.objectContaining({ name: 'e2e-evidence', version: expect.anything(), lastSync: expect.any(String) }),
      ]);
      expect(r.threshold).toBeGreaterThan(0);
      expect(r.matchCount).toBe(r.matches.length);
      expect(r.keyPrefix).toBe(key.slice(0, 12));
    }
    expect(rows[1].subject).toMatchObject({ orgNumber: A, country: 'NO' });
    expect(rows[1].matches).toEqual([expect.objectContaining({ entityId: 'NK-zh' })]);
    expect(rows[2].subject.queries).toEqual([expect.objectContaining({ key: 'q1', birthYear: 1970 })]);
    expect(JSON.stringify(audit.body)).not.toContain('1970-05-12');
    // Another project sees none of them; from/to bound the list.
    expect((await http(server.url, 'GET', '/api/screening/audit', { key: other })).body.data).toEqual([]);
    const future = await http(server.url, 'GET', '/api/screening/audit?from=2999-01-01T00:00:00Z', { key });
    expect(future.body.data).toEqual([]);
  }, 60_000);
});

describe('key rotation', () => {
  it('a server with a new EVIDENCE_SIGNING_KEY lists both keys; the old pack still verifies', async () => {
    const rotated = await startServer({
      database: await cloneless(),
      env: { BRREG_BASE_URL: brreg.url, EVIDENCE_SIGNING_KEY: generateSigningKeyPem().replace(/\n/g, '\\n') },
    });
    try {
      const r2key = (await createKey(rotated, { tier: 'internal' })).raw;
      const p2 = JSON.parse(
        await (
          await fetch(`${rotated.url}/api/companies/${A}/evidence`, {
            method: 'POST',
            headers: { authorization: `Bearer ${r2key}`, 'content-type': 'application/json' },
            body: '{}',
          })
        ).text(),
      );
      expect(p2.signature.kid).not.toBe(pack.signature.kid);
      const kids = (await http(rotated.url, 'GET', '/.well-known/jwks.json')).body.keys.map((k: any) => k.kid);
      expect(kids).toEqual(expect.arrayContaining([pack.signature.kid, p2.signature.kid]));
      const file = path.join(tmp, 'old.json');
      writeFileSync(file, text);
      expect(
        (await runProcess([CLI, 'evidence', 'verify', file, '--jwks', `${rotated.url}/.well-known/jwks.json`], {}))
          .code,
      ).toBe(0);
    } finally {
      await rotated.close();
    }
  }, 120_000);
});

/** The first server's database, for a second server after the first one closed its hold on it. */
async function cloneless(): Promise<TestDatabase> {
  // Embedded mode: one process per data directory, so the first server stops first.
  await server.close();
  server = await startServer({ database, env: { BRREG_BASE_URL: brreg.url } });
  await server.close();
  return { env: database.env, drop: async () => undefined };
}
