// The demo world from its fixed seed: unique company names in every country, trade words that fit
// their NACE codes, ownership chains several layers deep with foreign owners at the top of some,
// generated people with birth years, a PEP/sanctions list whose person entries are close variants
// of demo board members, and a second round that changes what it says it changes.
import { describe, expect, it } from 'vitest';
import { readNace } from '../../../src/sources/reference/files.ts';
import { brregRound } from '../../../src/sources/demo/brreg.ts';
import { cvrNdjson } from '../../../src/sources/demo/denmark.ts';
import { prhJson } from '../../../src/sources/demo/finland.ts';
import { bolagsverketText } from '../../../src/sources/demo/sweden.ts';
import { sanctionsFtm, screenedPeople } from '../../../src/sources/demo/screening.ts';
import { shareholderCsv } from '../../../src/sources/demo/shareholders.ts';
import { TRADES } from '../../../src/sources/demo/vocabulary.ts';
import { buildDemoWorld, DEMO_SEED } from '../../../src/sources/demo/world.ts';

const world = buildDemoWorld();

describe('demo world', () => {
  it('is the same world for the same seed', () => {
    const again = buildDemoWorld();
    expect(again.companies.map((c) => `${c.orgNumber} ${c.name}`)).toEqual(
      world.companies.map((c) => `${c.orgNumber} ${c.name}`),
    );
  });

  it('has 3,000 Norwegian companies, no two with the same name, the README companies among them', () => {
    expect(world.companies).toHaveLength(3000);
    expect(new Set(world.companies.map((c) => c.name)).size).toBe(3000);
    // Nor without the legal form: "X AS" and "X NUF" would be one name to a user.
    expect(new Set(world.companies.map((c) => c.name.replace(/ (AS|ASA|ANS|DA|NUF|SA)$/, ''))).size).toBe(3000);
    expect(world.byOrg.get('810000023')?.name).toBe('SOLBERG FYSIOTERAPI AS');
    expect(world.byOrg.get('810000066')).toMatchObject({ name: 'ØSTLANDET INTERIØR AS' });
    expect(world.byOrg.get('810000066')?.address.municipalityNo).toBe('0301');
  });

  it('names the Finnish, Swedish and Danish companies uniquely too', () => {
    const fi = JSON.parse(prhJson(DEMO_SEED)).map((c: { names: { name: string }[] }) => c.names[0].name);
    const se = bolagsverketText(DEMO_SEED)
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(';')[3].split('$')[0]);
    const dk = cvrNdjson(DEMO_SEED)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)._source.Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn);
    for (const names of [fi, se, dk]) {
      expect(new Set(names).size).toBe(names.length);
      expect(new Set(names.map((n: string) => n.replace(/ \S+$/, ''))).size).toBe(names.length);
    }
    expect([fi.length, se.length, dk.length]).toEqual([300, 300, 200]);
  });

  it('gives every company a real SN2007 code that its trade word stands for', () => {
    const codes = new Set(readNace('SN2007').rows.map((n) => n.code));
    for (const c of world.companies) {
      expect(codes.has(c.nace.code), c.name).toBe(true);
      const trade = TRADES.find((t) => t.nace === c.nace.code && c.name.includes(t.word.toLocaleUpperCase('nb')));
      expect(trade, `${c.name} ${c.nace.code}`).toBeDefined();
    }
    const bakery = world.companies.find((c) => c.name.includes('BAKERI'))!;
    expect(bakery.nace.code).toBe('10.710');
  });

  it('builds ownership chains of several layers, with foreign owners at the top of some', () => {
    const depth = (org: string): number => {
      const p = world.byOrg.get(org)!.parent;
      return p ? 1 + depth(p.orgNumber) : 0;
    };
    const depths = world.companies.map((c) => depth(c.orgNumber));
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(3);
    expect(depth('810000066')).toBe(2); // ØSTLANDET INTERIØR <- sub-holding <- FJORD HOLDING
    const csv = shareholderCsv(world, 2024, DEMO_SEED);
    expect(csv.startsWith('\uFEFFOrgnr;Selskap;Aksjeklasse;')).toBe(true);
    const foreign = csv.split('\r\n').filter((l) => /;(SE|DK|FI|GB|DE);\d+;\d+$/.test(l));
    expect(foreign.length).toBeGreaterThan(5);
    expect(csv).toContain('810000147;FJORD HOLDING AS;Ordinære aksjer;KYSTHOLM INVEST APS; ;2900, HELLERUP;DK;');
    // People are shown by birth year only, never a full date.
    expect(csv).not.toMatch(/;\d{4}-\d{2}-\d{2};/);
  });

  it('differs between the register years where a holder sold or a parent bought out', () => {
    const a = shareholderCsv(world, 2023, DEMO_SEED).split('\r\n');
    const b = new Set(shareholderCsv(world, 2024, DEMO_SEED).split('\r\n'));
    const changed = a.filter((l) => !b.has(l));
    expect(changed.length).toBeGreaterThan(50);
    expect(changed.length).toBeLessThan(a.length / 2);
  });

  it('lists close variants of demo board members, with their birth year, on the FtM list', () => {
    const lines = sanctionsFtm(world)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const people = screenedPeople(world);
    for (const [k, { person }] of people.entries()) {
      const e = lines.find((l) => l.id === `ncd-demo-person-${k + 1}`);
      expect(e.properties.birthDate).toEqual([person.birthDate.slice(0, 4)]);
      // The same person written another way: Norwegian letters folded, or a middle initial added.
      const fold = (s: string) =>
        s
          .replace(/ø/g, 'o')
          .replace(/å/g, 'a')
          .replace(/æ/g, 'ae')
          .replace(/ [A-Z]\. /, ' ');
      expect(fold(e.caption)).toBe(fold(`${person.firstName} ${person.lastName}`));
    }
    expect(lines.every((l) => l.datasets[0] === 'ncd_demo' && l.target === true)).toBe(true);
  });

  it('changes in round 2 exactly what the world says: CEO, address, bankruptcy, deletion', () => {
    const one = brregRound(world, 1, DEMO_SEED);
    const two = brregRound(world, 2, DEMO_SEED);
    const { changes } = world;
    expect(two.enheter.length).toBe(one.enheter.length - changes.deleted.size);
    const byOrg = new Map(two.enheter.map((e) => [e.organisasjonsnummer, e]));
    for (const org of changes.bankrupt) expect(byOrg.get(org)?.konkurs).toBe(true);
    for (const [org, a] of changes.moved) expect(byOrg.get(org)?.forretningsadresse?.adresse).toEqual([a.street]);
    const changed = one.enheter.filter(
      (e) => byOrg.has(e.organisasjonsnummer) && JSON.stringify(e) !== JSON.stringify(byOrg.get(e.organisasjonsnummer)),
    );
    expect(new Set(changed.map((e) => e.organisasjonsnummer))).toEqual(
      new Set([...changes.bankrupt, ...changes.moved.keys()]),
    );
    const ceo = (r: typeof one, org: string) =>
      r.roller.find((x) => x.organisasjonsnummer === org)!.rollegrupper![0].roller![0].person!.navn;
    expect(ceo(two, '810000023')).not.toEqual(ceo(one, '810000023'));
  });
});
