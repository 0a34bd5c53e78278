// The demo world's shareholder register as Skatteetaten's aksjeeierbok CSV (BOM, `;`, no quoting,
// CRLF), for 2023 and 2024: parents hold their share of each group member, people (birth year
// only) the rest; some top holdings belong to a foreign company (no number, "code, place" and a
// country code, as in the real file). Between the years some holders sell, some parents buy out
// the minority, so the ownership changes show real differences.
import { seededRandom, type SeededRandom } from '../seeded-random.ts';
import { SHAREHOLDER_COLUMNS } from '../aksjonaer/parse.ts';
import type { DemoCompany, DemoPerson, DemoWorld } from './world.ts';

/** Foreign holders at the top of some groups: demo companies of the other registers, and two beyond. */
export const FOREIGN_OWNERS = [
  { name: 'NORRSKEN KAPITAL AB', postal: '114 35, STOCKHOLM', country: 'SE' },
  { name: 'KYSTHOLM INVEST APS', postal: '2900, HELLERUP', country: 'DK' },
  { name: 'POHJOLA SIJOITUS OY', postal: '00100, HELSINKI', country: 'FI' },
  { name: 'NORTH SEA HARBOUR HOLDINGS LTD', postal: 'AB11 5PN, ABERDEEN; UNITED KINGDOM', country: 'GB' },
  { name: 'ALPENBLICK BETEILIGUNGEN GMBH', postal: '80331, MÜNCHEN', country: 'DE' },
] as const;

interface Holding {
  name: string;
  id: string;
  postal: string;
  country: string;
  count: number;
}

const TOTALS = [100, 1_000, 3_000, 30_000, 100_000] as const;

function split(total: number, parts: number, r: SeededRandom): number[] {
  if (parts <= 1) return [total];
  const weights = Array.from({ length: parts }, () => 1 + r.int(0, 99));
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  out[0] += total - out.reduce((a, b) => a + b, 0);
  return out;
}

const personHolding = (p: DemoPerson, c: DemoCompany, count: number): Holding => ({
  name: `${p.firstName} ${p.lastName}`.toLocaleUpperCase('nb'),
  id: p.birthDate.slice(0, 4),
  postal: `${c.address.postalCode} ${c.address.place}`,
  country: 'NO',
  count,
});

function holdingsOf(world: DemoWorld, c: DemoCompany, total: number, year: number, r: SeededRandom): Holding[] {
  const out: Holding[] = [];
  // Year-independent draws first, so 2023 and 2024 differ only where a change is decided.
  const owners = [c.chair, ...c.members, ...(c.ceo ? [c.ceo] : [])];
  const foreign = !c.parent && c.trade.kind === 'holding' && c.index % 7 === 0;
  const buyout = r.chance(0.1);
  const sale = r.chance(0.08);
  const buyer = world.people[(c.index * 7 + 11) % world.people.length];
  let rest = total;
  if (c.parent) {
    let percent = c.parent.percent;
    if (year === 2024 && buyout && percent < 100) percent = Math.min(100, percent + 20);
    const parent = world.byOrg.get(c.parent.orgNumber)!;
    const count = Math.round((total * percent) / 100);
    out.push({
      name: parent.name,
      id: parent.orgNumber,
      postal: `${parent.address.postalCode} ${parent.address.place}`,
      country: 'NO',
      count,
    });
    rest -= count;
  } else if (foreign) {
    const f = FOREIGN_OWNERS[((c.index / 7) % FOREIGN_OWNERS.length) | 0];
    const count = Math.round(total * 0.7);
    out.push({ name: f.name, id: ' ', postal: f.postal, country: f.country, count });
    rest -= count;
  }
  if (rest > 0) {
    const people = owners.slice(0, Math.min(owners.length, 1 + (c.index % 3)));
    split(rest, people.length, r).forEach((count, k) => {
      // In 2024 the last person holder of some companies has sold to someone new.
      const p = year === 2024 && sale && k === people.length - 1 ? buyer : people[k];
      out.push(personHolding(p, c, count));
    });
  }
  return out;
}

/** The CSV of one register year, as one string (a few thousand companies). */
export function shareholderCsv(world: DemoWorld, year: 2023 | 2024, seed: number): string {
  const lines = [`\uFEFF${SHAREHOLDER_COLUMNS.join(';')}`];
  for (const c of world.companies) {
    if (c.form !== 'AS' && c.form !== 'ASA') continue;
    if (world.changes.deleted.has(c.orgNumber) && year === 2024) continue;
    const r = seededRandom(seed * 7_919 + c.index);
    const total = r.pick(TOTALS);
    const classes = c.form === 'ASA' || c.index % 13 === 0 ? ['A-aksjer', 'B-aksjer'] : ['Ordinære aksjer'];
    for (const cls of classes) {
      const classTotal = classes.length === 2 ? (cls === 'A-aksjer' ? total / 10 : total - total / 10) : total;
      for (const h of holdingsOf(world, c, classTotal, year, seededRandom(seed * 104_729 + c.index))) {
        if (h.count <= 0) continue;
        lines.push([c.orgNumber, c.name, cls, h.name, h.id, h.postal, h.country, h.count, classTotal].join(';'));
      }
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
