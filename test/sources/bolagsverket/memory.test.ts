import { describe, expect, it } from 'vitest';
import {
  expectedGeneratedCompanies,
  generateBolagsverketText,
  newBolagsverketStats,
  parseBolagsverketText,
} from '../../../src/sources/bolagsverket/index.ts';

const ROWS = 300_000;
const LIMIT_MB = 300;

describe('parseBolagsverketText memory', () => {
  it(`parses a generated ${ROWS}-row file in bounded memory`, async () => {
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    const startRss = process.memoryUsage().rss;
    let peakRss = startRss;
    const stats = newBolagsverketStats(0);
    let emitted = 0;
    let nameChars = 0;
    const started = performance.now();
    for await (const r of parseBolagsverketText(generateBolagsverketText(ROWS, 2026), { stats })) {
      emitted++;
      nameChars += r.name.length; // touch each record, as a consumer would
      if (emitted % 2000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `bolagsverket ${ROWS} rows: ${emitted} companies in ${seconds.toFixed(1)} s; ` +
        `RSS start ${mb(startRss)} MB, peak ${mb(peakRss)} MB, growth ${mb(peakRss - startRss)} MB (limit ${LIMIT_MB} MB)`,
    );
    expect(emitted).toBe(expectedGeneratedCompanies(ROWS));
    expect(stats.emitted).toBe(emitted);
    expect(nameChars).toBeGreaterThan(emitted * 5);
    expect(peakRss - startRss).toBeLessThan(LIMIT_MB * 1024 * 1024);
  });
});
