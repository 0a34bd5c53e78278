// A deterministic set of procurement procedures for API tests: competitions by chosen buyers with
// deadlines on both sides of a reference day, some awarded (one or two winners), some cancelled,
// some by Swedish buyers, some without a deadline or an estimated value. Written as eForms files
// named by Doffin id, loaded through `ncd sync procurement --file DIR` like real notices.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { noticeXml, type NoticeSpec } from './notices.ts';

const TITLES = [
  'Renhold av skoler i Øst',
  'IT-drift og brukerstøtte',
  'Bygging av gang- og sykkelvei',
  'Levering av medisinsk utstyr',
  'Rammeavtale for kontorrekvisita',
  'Snøbrøyting og strøing, sone Nord',
];
const CPV = ['90911200', '90919200', '72000000', '72212000', '45233162', '33140000', '30192000', '90620000'];
const DAY = 86_400_000;
const uuid = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** The notices of `count` procedures; `buyers` and `winners` are Norwegian org numbers. */
export function procurementDataset(count: number, buyers: string[], winners: string[], start: Date) {
  const files = new Map<string, NoticeSpec>();
  for (let i = 0; i < count; i++) {
    const procedureId = uuid(0xf0, i);
    const issued = new Date(start.getTime() + i * DAY + (i % 5) * 3_600_000);
    const deadline = i % 11 === 0 ? undefined : new Date(issued.getTime() + (20 + ((i * 13) % 70)) * DAY);
    const swedish = i % 7 === 3;
    const base = {
      procedureId,
      title: `${TITLES[i % TITLES.length]} ${i}`,
      buyerOrg: swedish ? `55600${String(i).padStart(5, '0')}` : buyers[i % buyers.length],
      buyerCountry: swedish ? 'SWE' : 'NOR',
      cpv: i % 3 === 0 ? [CPV[i % CPV.length], CPV[(i + 3) % CPV.length]] : [CPV[i % CPV.length]],
    };
    files.set(`2026-3${String(i).padStart(5, '0')}`, {
      ...base,
      eformsId: uuid(0xc0, i),
      kind: 'competition',
      issuedAt: issued.toISOString(),
      deadline: deadline?.toISOString(),
      value: i % 9 === 0 ? undefined : ((i * 37) % 50) * 100_000 + 100_000,
    });
    const after = new Date((deadline ?? issued).getTime() + 10 * DAY).toISOString();
    if (i % 4 === 1) {
      const two = i % 8 === 5;
      files.set(`2026-4${String(i).padStart(5, '0')}`, {
        ...base,
        eformsId: uuid(0xa0, i),
        kind: 'result',
        issuedAt: after,
        winners: [
          { org: winners[i % winners.length], name: `Vinner ${i}`, value: 200_000 + i * 1000 },
          ...(two ? [{ org: winners[(i + 1) % winners.length], name: `Vinner ${i}b`, value: 150_000 + i * 1000 }] : []),
        ],
      });
    } else if (i % 10 === 3) {
      files.set(`2026-5${String(i).padStart(5, '0')}`, {
        ...base,
        eformsId: uuid(0xdd, i),
        kind: 'cancellation',
        issuedAt: after,
      });
    }
  }
  return files;
}

export async function writeDataset(dir: string, files: Map<string, NoticeSpec>): Promise<void> {
  for (const [id, spec] of files) await writeFile(path.join(dir, `${id}.xml`), noticeXml(spec));
}
