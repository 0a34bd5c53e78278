// The `cvr` job over a generated 300k-document scroll served by the fake CVR Elasticsearch: the
// documents are made on demand by index (the fake never holds them), the job holds one page and
// one write batch, so the process's peak RSS stays bounded. The peak is printed.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const COUNT = 300_000;
const template = readFileSync(new URL('../fixtures/cvr/virksomheder.ndjson', import.meta.url), 'utf8').split('\n')[1];

/** The first `n` valid CVR numbers from 20000000 up (mod-11: the last digit makes the sum divisible). */
function cvrNumbers(n: number): Int32Array {
  const out = new Int32Array(n);
  const w = [2, 7, 6, 5, 4, 3, 2];
  for (let prefix = 2_000_000, k = 0; k < n; prefix++) {
    const digits = String(prefix);
    const sum = w.reduce((acc, x, i) => acc + x * Number(digits[i]), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check < 10) out[k++] = prefix * 10 + check;
  }
  return out;
}

let cvr: FakeCvr;
let server: TestServer;

beforeAll(async () => {
  const numbers = cvrNumbers(COUNT);
  cvr = await startFakeCvr();
  cvr.generated = {
    count: COUNT,
    generate: (i) => {
      const hit = JSON.parse(template);
      const v = hit._source.Vrvirksomhed;
      v.cvrNummer = numbers[i];
      v.virksomhedMetadata.nyesteNavn.navn = `Generated Kyst ${i} ApS`;
      v.penheder = v.penheder.map((p: { pNummer: number }, j: number) => ({
        ...p,
        pNummer: 1_100_000_000 + i * 2 + j,
      }));
      return hit;
    },
  };
  server = await startServer({ env: cvr.env });
});
afterAll(async () => {
  await server?.close();
  await cvr?.close();
});

describe('cvr at scale', () => {
  it(`syncs a ${COUNT}-document scroll in bounded memory`, async () => {
    const started = Date.now();
    const r = await runJob(server.ctx, 'cvr', {}, () => undefined);
    const seconds = (Date.now() - started) / 1000;
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`cvr scroll: ${COUNT} documents in ${seconds.toFixed(1)} s, peak RSS ${peakMb} MB`);
    expect(r.details).toMatchObject({ processed: COUNT, inserted: COUNT, absentMarked: true });
    // One 1000-document page and one 2000-company batch at a time; the whole set would be GBs.
    expect(peakMb).toBeLessThan(1500);
  });
});
