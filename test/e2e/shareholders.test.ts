// GET /api/companies/{orgNumber}/shareholders and GET /api/shareholders/by-owner on imported
// register years; natural persons and logs; the CLI import of a large file in bounded memory.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import { createLogger } from '../../src/logger.ts';
import { operatorToken } from '../../src/ops/operator-token.ts';
import { generateShareholderCsv } from '../../src/sources/aksjonaer/generate.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import {
  byCompany,
  byForeign,
  byPerson,
  company,
  csvText,
  org,
  writeRegister,
  removeRegisters,
} from '../fixtures/aksjonaer/build.ts';
import { serverMode, TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let key: string;
const logs: string[] = [];
const bodies: string[] = [];

const [ACME, HOLD, GHOST, FAMILY] = [org(200), org(201), org(202), org(203)];
const NATIONAL_ID = '01018012345';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'true' }, // the receiver is on loopback
    overrides: { logger: createLogger('info', { write: (line: string) => void logs.push(line) }) },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    company(ACME, 'ACME AS', { employees: 42 }),
    company(HOLD, 'HOLDING AS', { employees: 2 }),
    company(FAMILY, 'FAMILIE AS', { employees: 1 }),
  ]);
  const year = (y: number, lines: Parameters<typeof csvText>[0]) =>
    runJob(server.ctx, 'shareholders', { file: writeRegister(`aksjeeierbok_${y}.csv`, lines) }, () => undefined);
  await year(2023, [
    byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 500, 1000),
    byPerson(ACME, 'ACME AS', 'OLA NORDMANN', 1980, 500, 1000),
  ]);
  await year(2024, [
    byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 600, 1000),
    byPerson(ACME, 'ACME AS', 'OLA NORDMANN', 1980, 300, 1000),
    byForeign(ACME, 'ACME AS', 'NORDISK KAPITAL AB', 100, 1000),
    // B-shares without a stated total: the total is the sum of the stored positions (40)
    byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 30, null, 'B-aksjer'),
    byPerson(ACME, 'ACME AS', 'KARI NORDMANN', 1975, 10, null, 'B-aksjer'),
    byCompany(GHOST, 'GHOST AS', HOLD, 'HOLDING AS', 5, 10),
    byPerson(FAMILY, 'FAMILIE AS', 'ANNE LIE', 1990, 70, 100),
    byPerson(FAMILY, 'FAMILIE AS', 'PER LIE', 1988, 30, 100),
  ]);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  removeRegisters();
});

/** GET with the suite's key, another key, or none (null). */
async function get(path: string, k: string | null = key) {
  const r = await http(server.url, 'GET', path, { key: k ?? undefined });
  bodies.push(JSON.stringify(r.body));
  return r;
}

describe('GET /api/companies/{orgNumber}/shareholders', () => {
  it('lists entity holders of every year, newest first, without natural persons by default', async () => {
    const r = await get(`/api/companies/${ACME}/shareholders`);
    expect(r.status).toBe(200);
    expect(r.body.availableYears).toEqual([2024, 2023]);
    expect(r.body.data).toEqual([
      {
        shareholderName: 'HOLDING AS',
        shareholderOrgNumber: HOLD,
        shareholderType: 'company',
        shareClass: 'B-aksjer',
        shareCount: 30,
        totalSharesInCompany: 40,
        year: 2024,
        ownershipPct: 75,
        postalCode: '0150',
        location: 'OSLO',
        countryCode: 'NO',
      },
      {
        shareholderName: 'HOLDING AS',
        shareholderOrgNumber: HOLD,
        shareholderType: 'company',
        shareClass: 'Ordinære aksjer',
        shareCount: 600,
        totalSharesInCompany: 1000,
        year: 2024,
        ownershipPct: 60,
        postalCode: '0150',
        location: 'OSLO',
        countryCode: 'NO',
      },
      {
        shareholderName: 'NORDISK KAPITAL AB',
        shareholderOrgNumber: null,
        shareholderType: 'foreign',
        shareClass: 'Ordinære aksjer',
        shareCount: 100,
        totalSharesInCompany: 1000,
        year: 2024,
        ownershipPct: 10,
        postalCode: '114 35',
        location: 'STOCKHOLM',
        countryCode: 'SE',
      },
      {
        shareholderName: 'HOLDING AS',
        shareholderOrgNumber: HOLD,
        shareholderType: 'company',
        shareClass: 'Ordinære aksjer',
        shareCount: 500,
        totalSharesInCompany: 1000,
        year: 2023,
        ownershipPct: 50,
        postalCode: '0150',
        location: 'OSLO',
        countryCode: 'NO',
      },
    ]);
  });

  it('adds natural persons with includePersons=true, with name and birth year only', async () => {
    const r = await get(`/api/companies/${ACME}/shareholders?year=2024&includePersons=true`);
    expect(r.status).toBe(200);
    expect(r.body.availableYears).toEqual([2024, 2023]);
    const persons = r.body.data.filter((d: { shareholderType: string }) => d.shareholderType === 'person');
    expect(persons).toEqual([
      {
        shareholderName: 'KARI NORDMANN',
        shareholderBirthYear: 1975,
        shareholderType: 'person',
        shareClass: 'B-aksjer',
        shareCount: 10,
        totalSharesInCompany: 40,
        year: 2024,
        ownershipPct: 25,
      },
      {
        shareholderName: 'OLA NORDMANN',
        shareholderBirthYear: 1980,
        shareholderType: 'person',
        shareClass: 'Ordinære aksjer',
        shareCount: 300,
        totalSharesInCompany: 1000,
        year: 2024,
        ownershipPct: 30,
      },
    ]);
    expect(r.body.data).toHaveLength(5);
    const without = await get(`/api/companies/${ACME}/shareholders?year=2024&includePersons=false`);
    expect(without.body.data.map((d: { shareholderType: string }) => d.shareholderType)).toEqual([
      'company',
      'company',
      'foreign',
    ]);
  });

  it('answers an empty list for a company without register data', async () => {
    const r = await get(`/api/companies/923609016/shareholders`);
    expect(r.body).toEqual({ data: [], availableYears: [] });
  });

  it('answers 400 for a bad org number, year or flag, and 401 without a key', async () => {
    const cases: [string, string][] = [
      [`/api/companies/12345678/shareholders`, 'params.orgNumber'],
      [`/api/companies/923609017/shareholders`, 'params.orgNumber'],
      [`/api/companies/${ACME}/shareholders?year=20x4`, 'query.year'],
      [`/api/companies/${ACME}/shareholders?year=1899`, 'query.year'],
      [`/api/companies/${ACME}/shareholders?includePersons=maybe`, 'query.includePersons'],
    ];
    for (const [path, field] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await get(`/api/companies/${ACME}/shareholders`, null)).status).toBe(401);
    expect((await get(`/api/companies/${ACME}/shareholders`, 'ncd_not_a_key')).status).toBe(401);
  });
});

describe('GET /api/shareholders/by-owner', () => {
  it('lists holdings with company data from the store, else the register name', async () => {
    const r = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      shareholderOrgNumber: HOLD,
      data: [
        {
          orgNumber: ACME,
          companyName: 'ACME AS',
          orgFormCode: 'AS',
          employeeCount: 42,
          shareClass: 'B-aksjer',
          shareCount: 30,
          totalSharesInCompany: 40,
          year: 2024,
          ownershipPct: 75,
        },
        {
          orgNumber: ACME,
          companyName: 'ACME AS',
          orgFormCode: 'AS',
          employeeCount: 42,
          shareClass: 'Ordinære aksjer',
          shareCount: 600,
          totalSharesInCompany: 1000,
          year: 2024,
          ownershipPct: 60,
        },
        {
          orgNumber: GHOST,
          companyName: 'GHOST AS',
          orgFormCode: null,
          employeeCount: null,
          shareClass: 'Ordinære aksjer',
          shareCount: 5,
          totalSharesInCompany: 10,
          year: 2024,
          ownershipPct: 50,
        },
        {
          orgNumber: ACME,
          companyName: 'ACME AS',
          orgFormCode: 'AS',
          employeeCount: 42,
          shareClass: 'Ordinære aksjer',
          shareCount: 500,
          totalSharesInCompany: 1000,
          year: 2023,
          ownershipPct: 50,
        },
      ].sort(
        (a, b) => b.year - a.year || a.orgNumber.localeCompare(b.orgNumber) || a.shareClass.localeCompare(b.shareClass),
      ),
    });
    const y = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}&year=2023`);
    expect(y.body.data).toHaveLength(1);
  });

  it('answers 400 for a missing or malformed number or a bad year, 401 without a key', async () => {
    for (const [q, field] of [
      ['', 'query.shareholderOrgNumber'],
      ['?shareholderOrgNumber=98765432', 'query.shareholderOrgNumber'],
      ['?shareholderOrgNumber=987654322', 'query.shareholderOrgNumber'],
      [`?shareholderOrgNumber=${HOLD}&year=abc`, 'query.year'],
    ]) {
      const r = await get(`/api/shareholders/by-owner${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}`, null)).status).toBe(401);
  });
});

describe('owners on the company record', () => {
  it('offers majorityOwner and largestShareholder of the latest year; a person by name only', async () => {
    const acme = (await get(`/api/companies/${ACME}`)).body;
    // HOLDING: (600 + 30) / (1000 + 40)
    const hold = { name: 'HOLDING AS', orgNumber: HOLD, ownershipPct: 60.576923, year: 2024 };
    expect(acme).toMatchObject({
      majorityOwner: hold,
      largestShareholder: hold,
      parentOrgNumber: HOLD,
      isInGroup: true,
    });
    expect(acme._sources.attribution).toContain('Aksjonærregisteret');
    const family = (await get(`/api/companies/${FAMILY}`)).body;
    expect(family.majorityOwner).toEqual({ name: 'ANNE LIE', orgNumber: null, ownershipPct: 70, year: 2024 });
    expect(family.largestShareholder).toEqual(family.majorityOwner);
    expect(JSON.stringify(family)).not.toContain('1990');
  });
});

describe('quotas and privacy', () => {
  it('counts each shareholder and group call as one request', async () => {
    const fresh = await createKey(server);
    for (const p of [
      `/api/companies/${ACME}/shareholders`,
      `/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}`,
      `/api/companies/${ACME}/group`,
    ]) {
      expect((await get(p, fresh.raw)).status).toBe(200);
    }
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: fresh.raw });
    expect(usage.body.usage.today).toBe(3);
  });

  it('never puts a full birth date or national id in a response, a push payload or a log line', async () => {
    // A push of the companies whose owners are persons: the payload names them, nothing more.
    const dest = await http(server.url, 'POST', '/api/destinations', {
      key,
      body: { name: 'privacy', type: 'webhook', config: { url: `${receiver.url}/in` } },
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(201);
    const pushed = await http(server.url, 'POST', '/api/push/privacy', { key, body: { orgNumbers: [ACME, FAMILY] } });
    expect(pushed.body).toMatchObject({ requested: 2, delivered: 2, errors: [] });
    const payload = receiver.requests.map((r) => r.body).join('\n');
    expect(payload).toContain('ANNE LIE');
    bodies.push(payload);

    // A register line carrying a national id where a birth year belongs, run as `ncd sync` runs
    // it inside a running server: the import fails naming the line, without repeating the id.
    const bad = writeRegister(
      'aksjeeierbok_2022.csv',
      csvText([byPerson(ACME, 'ACME AS', 'OLA NORDMANN', 1980, 1, 1)]) +
        `${ACME};ACME AS;Ordinære aksjer;OLA NORDMANN;${NATIONAL_ID};0150 OSLO;NO;1;1\r\n`,
    );
    const res = await fetch(`${server.url}/internal/operator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-token': operatorToken(server.ctx.config.secretKey) },
      body: JSON.stringify({ command: 'sync', source: 'shareholders', file: bad }),
    });
    const out = await res.text();
    expect(out).toContain('line 3');
    bodies.push(out);
    expect((await get(`/api/companies/${ACME}/shareholders?includePersons=true`)).body.availableYears).toEqual([
      2024, 2023,
    ]);
    expect(logs.length).toBeGreaterThan(10);
    const everything = [...bodies, ...logs].join('\n');
    expect(everything).toContain('OLA NORDMANN');
    expect(everything).not.toContain(NATIONAL_ID);
    expect(everything).not.toMatch(/\b\d{6}\s?\d{5}\b/); // fødselsnummer shape
    expect(everything).not.toMatch(/\b(19|20)\d{2}-\d{2}-\d{2}(?!T)/); // a date that is not a timestamp
    expect(everything).not.toMatch(/\b\d{2}\.\d{2}\.(19|20)\d{2}\b/);
  });
});

describe('ncd sync shareholders --file (a separate process)', () => {
  it('imports ~200k generated rows in bounded memory', async () => {
    const db = await createTestDatabase();
    try {
      const companies = Array.from({ length: 50_000 }, (_, i) => ({
        orgNumber: org(10_000 + i),
        name: `GENERERT ${i} AS`,
      }));
      const file = writeRegister('aksjeeierbok_2024.csv', '');
      const sink = createWriteStream(file);
      generateShareholderCsv({ companies, seed: 11 }).pipe(sink);
      await once(sink, 'close');
      // Peak RSS of the CLI process, reported by the process itself as it exits.
      const reportRss = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxRSS '+process.resourceUsage().maxRSS+'\\n'))`;
      const started = Date.now();
      const r = await runProcess([`--import=${reportRss}`, CLI, 'sync', 'shareholders', '--file', file], {
        ...db.env,
        SECRET_KEY: TEST_SECRET,
        DEMO_DATA: 'off',
        SYNC_SCHEDULE: 'off',
      });
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result).toMatchObject({ status: 'ok', details: { year: 2024 } });
      expect(result.recordsProcessed).toBeGreaterThan(180_000);
      const rssMb = Number(/maxRSS (\d+)/.exec(r.stderr)![1]) / 1024;
      console.log(
        `ncd sync shareholders: ${result.recordsProcessed} rows in ${((Date.now() - started) / 1000).toFixed(1)} s, peak RSS ${rssMb.toFixed(0)} MB (${serverMode ? 'PostgreSQL' : 'embedded PGlite'})`,
      );
      // The embedded engine itself takes ~400-500 MB; rows are never all held in memory.
      expect(rssMb).toBeLessThan(serverMode ? 400 : 1200);
    } finally {
      await db.drop();
    }
  }, 90_000);
});
