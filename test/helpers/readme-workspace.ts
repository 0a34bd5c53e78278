// What a reader of README.md has around the examples, made local: a directory holding the files
// the examples name (test fixtures under the README's file names), fake registries behind the
// upstream URLs the sync examples download from, and a fake webhook receiver.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeBolagsverket, type FakeBolagsverket } from '../fakes/bolagsverket-hvd.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { startFakeFileServer, type FakeFileServer } from '../fakes/file-server.ts';
import { startFakePrh, zipOf, type FakePrh } from '../fakes/prh/server.ts';
import { startFakePrhXbrl, type FakePrhXbrl } from '../fakes/prh-xbrl.ts';
import { startFakeProcurement, type FakeProcurement } from '../fakes/procurement/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { ROOT, TMP } from './env.ts';

const FIXTURES = path.join(ROOT, 'test/fixtures');
const fixture = (p: string) => readFileSync(path.join(FIXTURES, p));

/** README file name -> fixture it stands for. */
const FILES: Record<string, string> = {
  'aksjeeierbok_2024.csv': 'aksjonaer/aksjeeierbok-sample.csv',
  'x.ndjson': 'cvr/virksomheder.ndjson',
  'licences.csv': 'tbr/licenses-sample.csv',
  'entities.ftm.json': 'sanctions/opensanctions-entities.ftm.sample.json',
  'entities.delta.json': 'sanctions/opensanctions-entities.delta.sample.json',
  'targets.simple.csv': 'sanctions/targets.simple.illustrative.csv',
  'eu-fsf.xml': 'sanctions/eu-fsf-export-excerpt.xml',
  'consolidated.xml': 'sanctions/un-consolidated-list-excerpt.xml',
};

export const WOLT_BUSINESS_ID = '2646674-9';
/** The filed statements behind the financials examples (fixtures with their source beside them). */
const FINNISH_STATEMENT = { businessId: '3470101-6', file: 'prh-xbrl/3470101-6_2024-12-31.xml' };
const SWEDISH_REPORT = { orgNumber: '5560047010', file: 'bolagsverket/5560047010_2024-12-31.xhtml' };
const BULK_PATH = '/bolagsverket/bolagsverket_bulkfil.zip';
const SANCTIONS_PATH = '/datasets/latest/default/entities.ftm.json';

export interface ReadmeWorkspace {
  /** The directory the examples run in (inside the checkout, so `npx ncd` finds the command). */
  dir: string;
  /** Upstream URLs (and the CVR credentials) pointing at the fakes. */
  env: Record<string, string>;
  webhook: WebhookReceiver;
  close(): Promise<void>;
}

export async function createReadmeWorkspace(demoOrgNumbers: string[]): Promise<ReadmeWorkspace> {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(path.join(TMP, 'readme-'));
  for (const [name, source] of Object.entries(FILES)) writeFileSync(path.join(dir, name), fixture(source));
  cpSync(path.join(FIXTURES, 'procurement/doffin'), path.join(dir, 'notices'), { recursive: true });
  // The financials examples' files: a ZIP of one PRH XBRL instance, and a ZIP of one Bolagsverket
  // report package (itself a dokument/{id} ZIP, named <orgnr>_<date>.zip as the README says).
  writeFileSync(path.join(dir, 'x.zip'), await zipOf('statement.xml', fixture(FINNISH_STATEMENT.file)));
  const report = await zipOf('arsredovisning.xhtml', fixture(SWEDISH_REPORT.file));
  writeFileSync(path.join(dir, 'reports.zip'), await zipOf(`${SWEDISH_REPORT.orgNumber}_2024-12-31.zip`, report));
  writeFileSync(path.join(dir, 'customers.csv'), `orgnr,customer\n${demoOrgNumbers.map((n) => `${n},x`).join('\n')}\n`);

  const prh: FakePrh = await startFakePrh();
  prh.companies = [JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json').toString()).companies[0]];
  prh.files.set(BULK_PATH, {
    body: await zipOf('bolagsverket_bulkfil.txt', fixture('bolagsverket/bolagsverket-bulkfil-sample.txt')),
    contentType: 'application/zip',
  });
  const cvr: FakeCvr = await startFakeCvr();
  cvr.hits = fixture('cvr/virksomheder.ndjson')
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const files: FakeFileServer = await startFakeFileServer();
  files.files.set('/smilefjes-tilsyn.csv', fixture('mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv'));
  files.files.set(SANCTIONS_PATH, fixture(FILES['entities.ftm.json']));
  const procurement: FakeProcurement = await startFakeProcurement();
  const today = new Date().toISOString().slice(0, 10);
  procurement.doffin.set('2026-107304', {
    issueDate: today,
    xml: fixture('procurement/doffin/2026-107304.xml').toString(),
  });
  const prhXbrl: FakePrhXbrl = await startFakePrhXbrl();
  prhXbrl.filings = [
    {
      businessId: FINNISH_STATEMENT.businessId,
      financialDate: '2024-12-31',
      registrationDate: today,
      xml: fixture(FINNISH_STATEMENT.file).toString(),
    },
  ];
  const bolagsverket: FakeBolagsverket = await startFakeBolagsverket();
  const webhook = await startWebhookReceiver();

  return {
    dir,
    env: {
      PRH_BASE_URL: prh.baseUrl,
      BOLAGSVERKET_BULK_URL: `${prh.url}${BULK_PATH}`,
      ...cvr.env,
      INSPECTIONS_URL: `${files.url}/smilefjes-tilsyn.csv`,
      SANCTIONS_URL: `${files.url}${SANCTIONS_PATH}`,
      DOFFIN_BASE_URL: `${procurement.url}/doffin`,
      TED_BASE_URL: `${procurement.url}/ted`,
      ...prhXbrl.env,
      ...bolagsverket.env,
    },
    webhook,
    async close() {
      await Promise.all([
        prh.close(),
        cvr.close(),
        files.close(),
        procurement.close(),
        prhXbrl.close(),
        bolagsverket.close(),
        webhook.close(),
      ]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
