// GET /api/evidence/{id}.pdf: the pack rendered for people. The PDF is rendered to an image with
// Debian's pdftoppm (poppler-utils, installed by .ci/run) and its text read with pdftotext: the
// first page has the verdict lines (registry status, screening hits, owners) and the hash, and
// every page carries the hash and signature in its footer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { byPerson, company, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { startEnhetFake } from '../fixtures/evidence/fake-brreg.ts';
import { ftm, ndjson, removeListFiles, writeListFile } from '../fixtures/screening/ftm.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const A = org(710);
let server: TestServer;
let brreg: Awaited<ReturnType<typeof startEnhetFake>>;
let key: string;
const tmp = mkdtempSync(path.join(tmpdir(), 'ncd-evidence-pdf-'));

beforeAll(async () => {
  brreg = await startEnhetFake({ [A]: 'SKIPSREDERI ØSTLANDET AS' }, new Set([A]));
  server = await startServer({ env: { BRREG_BASE_URL: brreg.url } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    {
      ...company(A, 'SKIPSREDERI ØSTLANDET AS'),
      roles: [
        {
          groupCode: null,
          groupDescription: null,
          roleTypeCode: 'DAGL',
          roleTypeDescription: 'Daglig leder',
          personFirstName: 'Ola',
          personMiddleName: null,
          personLastName: 'Testmann',
          personBirthYear: 1950,
          entityOrgNumber: null,
          entityName: null,
          electedBy: null,
          responsibilityShare: null,
          position: 0,
        },
      ],
    },
  ]);
  const quiet = () => undefined;
  await runJob(
    server.ctx,
    'shareholders',
    {
      file: writeRegister('aksjeeierbok_2024.csv', [
        byPerson(A, 'SKIPSREDERI ØSTLANDET AS', 'OLA TESTMANN', 1950, 10, 10),
      ]),
    },
    quiet,
  );
  await runJob(
    server.ctx,
    'sanctions',
    {
      file: writeListFile(
        'pdf.ftm.json',
        ndjson(
          [
            {
              id: 'NK-ola',
              schema: 'Person',
              caption: 'Ola TESTMANN',
              birthDate: '1950',
              country: 'no',
              topics: ['role.pep'],
              datasets: ['no_peps'],
            },
          ].map(ftm),
        ),
      ),
      list: 'e2e-pdf',
    },
    quiet,
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await brreg?.close();
  removeRegisters();
  removeListFiles();
});

describe('GET /api/evidence/{id}.pdf', () => {
  it('renders: the first page shows the verdict lines and the hash, every page the hash; checked as an image and as text', async () => {
    const made = await fetch(`${server.url}/api/companies/${A}/evidence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'PDF-CASE-9' }),
    });
    expect(made.status).toBe(201);
    const pack = (await made.json()) as any;
    const res = await fetch(`${server.url}/api/evidence/${pack.id}.pdf`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(tmp, 'pack.pdf');
    writeFileSync(file, pdf);

    // As an image: pdftoppm renders every page to PNG; page 1 must carry ink (not a blank page).
    execFileSync('pdftoppm', ['-png', '-r', '50', file, path.join(tmp, 'page')]);
    const pages = readdirSync(tmp)
      .filter((f) => /^page-\d+\.png$/.test(f))
      .sort();
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const png = readFileSync(path.join(tmp, pages[0]));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(path.join(tmp, pages[0])).size).toBeGreaterThan(5_000); // text drawn, not an empty page
    // Page 1 in grey levels: a fair share of its pixels are dark (pdftoppm -gray writes a PGM).
    const pgm = execFileSync('pdftoppm', ['-gray', '-r', '40', '-f', '1', '-l', '1', file]);
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    const pixels = pgm.subarray(header[0].length);
    const dark = pixels.filter((v) => v < 128).length;
    expect(dark / pixels.length).toBeGreaterThan(0.005);

    // As text: the verdict lines and the hash on page 1; the footer with hash and signature on every page.
    const first = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-layout', file, '-']).toString();
    expect(first).toContain('KYB evidence pack');
    expect(first).toContain('SKIPSREDERI ØSTLANDET AS');
    expect(first).toMatch(/Registry status: bankrupt/);
    expect(first).toMatch(/Screening: 1 possible match to review: Ola Testmann ~ Ola TESTMANN/);
    expect(first).toMatch(/Owners: 1 ultimate-owner candidate/);
    expect(first).toContain('PDF-CASE-9');
    expect(first).toContain(pack.hash.value);
    const all = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    const perPage = all.split('\f').filter((p) => p.trim());
    expect(perPage.length).toBe(pages.length);
    for (const p of perPage) {
      expect(p).toContain(`SHA-256 ${pack.hash.value}`);
      expect(p.replace(/\s+/g, '')).toContain(pack.signature.value.slice(0, 40));
    }
    expect(all).toContain('e2e-pdf'); // the list in the details
  }, 60_000);
});
