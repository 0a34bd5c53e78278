// The parsers must not depend on how the bytes are chunked (multi-byte characters split across
// chunks included) and must yield records before the input ends (files can be GBs).
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEuFsfXml } from '../../../src/sources/sanctions/eu-fsf.ts';
import { parseFtmDelta, parseFtmEntities } from '../../../src/sources/sanctions/ftm.ts';
import { parseTargetsSimpleCsv } from '../../../src/sources/sanctions/targets-csv.ts';
import { parseUnConsolidatedXml } from '../../../src/sources/sanctions/un-consolidated.ts';
import { collect, fixture, streamOf } from './helpers.ts';

const cases: [string, (r: Readable) => AsyncIterable<unknown>][] = [
  ['opensanctions-entities.ftm.sample.json', (r) => parseFtmEntities(r)],
  ['opensanctions-entities.delta.sample.json', (r) => parseFtmDelta(r)],
  ['targets.simple.illustrative.csv', (r) => parseTargetsSimpleCsv(r)],
  ['eu-fsf-export-excerpt.xml', (r) => parseEuFsfXml(r)],
  ['un-consolidated-list-excerpt.xml', (r) => parseUnConsolidatedXml(r)],
];

describe('sanctions parsers stream', () => {
  for (const [file, parse] of cases) {
    it(`gives the same records for ${file} however the bytes are chunked`, async () => {
      const bytes = fixture(file);
      const whole = await collect(parse(streamOf(bytes)));
      expect(whole.length).toBeGreaterThan(0);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
          expect(await collect(parse(streamOf(bytes, sizes)))).toEqual(whole);
        }),
        { numRuns: 25 },
      );
    });
  }

  it('yields FtM entities from an endless stream', async () => {
    let produced = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          produced++;
          yield (
            JSON.stringify({
              id: `e${produced}`,
              schema: 'Person',
              caption: `Person ${produced}`,
              properties: {},
              target: true,
            }) + '\n'
          );
        }
      })(),
    );
    const ids: string[] = [];
    for await (const e of parseFtmEntities(endless)) {
      ids.push(e.id);
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(['e1', 'e2', 'e3']);
    expect(endless.destroyed).toBe(true);
  });

  it('yields EU FSF listings from an endless stream', async () => {
    let n = 0;
    const endless = Readable.from(
      (function* () {
        yield '<export xmlns="http://eu.europa.ec/fpi/fsd/export">';
        for (;;) {
          n++;
          yield `<sanctionEntity logicalId="${n}"><subjectType code="person"/><nameAlias wholeName="P ${n}" strong="true"/></sanctionEntity>`;
        }
      })(),
    );
    const ids: string[] = [];
    for await (const e of parseEuFsfXml(endless)) {
      ids.push(e.id);
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(['eu-fsf-1', 'eu-fsf-2', 'eu-fsf-3']);
    expect(n).toBeLessThan(1000);
  });
});
