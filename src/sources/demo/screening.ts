// A small PEP/sanctions list for the demo in OpenSanctions' FollowTheMoney NDJSON (one entity a
// line, the shape of test/fixtures/sanctions/opensanctions-entities.ftm.sample.json). Every entry
// is invented: a few are close matches of demo board members (the same person written another
// way, with the same birth year), one is a foreign owner of the Norwegian register, and the rest
// match nobody. Dataset "ncd_demo", so no entry can be mistaken for a real list's.
import type { DemoPerson, DemoWorld } from './world.ts';
import { FOREIGN_OWNERS } from './shareholders.ts';

interface FtmLine {
  id: string;
  caption: string;
  schema: 'Person' | 'Organization' | 'Company';
  properties: Record<string, string[]>;
  datasets: string[];
  first_seen: string;
  last_seen: string;
  last_change: string;
  target: true;
}

const ascii = (s: string) =>
  s.replace(/ø/g, 'o').replace(/Ø/g, 'O').replace(/å/g, 'a').replace(/Å/g, 'A').replace(/æ/g, 'ae').replace(/Æ/g, 'AE');

function entity(id: string, schema: FtmLine['schema'], caption: string, properties: Record<string, string[]>): FtmLine {
  return {
    id: `ncd-demo-${id}`,
    caption,
    schema,
    properties: { name: [caption], ...properties },
    datasets: ['ncd_demo'],
    first_seen: '2024-01-15T08:00:00',
    last_seen: '2026-11-30T08:00:00',
    last_change: '2025-06-01T08:00:00',
    target: true,
  };
}

/** The board members the list names (close variants of their names), with why. */
export function screenedPeople(world: DemoWorld): { person: DemoPerson; company: string; topic: string }[] {
  const pick = (index: number) => world.companies[index];
  return [
    { person: pick(7).chair, company: pick(7).orgNumber, topic: 'sanction' },
    { person: pick(9).chair, company: pick(9).orgNumber, topic: 'role.pep' },
    { person: pick(5).ceo!, company: pick(5).orgNumber, topic: 'role.pep' },
    { person: pick(120).chair, company: pick(120).orgNumber, topic: 'sanction' },
    { person: pick(240).chair, company: pick(240).orgNumber, topic: 'role.pep' },
  ];
}

/** The list as FtM NDJSON. */
export function sanctionsFtm(world: DemoWorld): string {
  const lines: FtmLine[] = [];
  screenedPeople(world).forEach(({ person, topic }, k) => {
    // Written another way: without Norwegian letters, or with a middle initial.
    const caption =
      k % 2 === 0 ? ascii(`${person.firstName} ${person.lastName}`) : `${person.firstName} K. ${person.lastName}`;
    lines.push(
      entity(`person-${k + 1}`, 'Person', caption, {
        firstName: [ascii(person.firstName)],
        lastName: [ascii(person.lastName)],
        birthDate: [person.birthDate.slice(0, 4)],
        nationality: ['no'],
        topics: [topic],
        ...(topic === 'role.pep' ? { position: ['Member of a municipal council (demo entry)'] } : {}),
      }),
    );
  });
  const sanctionedOwner = FOREIGN_OWNERS[4];
  lines.push(
    entity('org-1', 'Company', sanctionedOwner.name, {
      country: [sanctionedOwner.country.toLowerCase()],
      topics: ['sanction'],
      notes: ['Invented demo entry: a foreign shareholder of demo companies'],
    }),
  );
  const unrelated: [string, FtmLine['schema'], string, string][] = [
    ['Ivan Petrovich Demoenko', 'Person', 'ru', '1961'],
    ['Mariam Exampleyan', 'Person', 'am', '1975'],
    ['Carlos Ficticio Ruiz', 'Person', 've', '1969'],
    ['Zhang Shili', 'Person', 'cn', '1980'],
    ['Ahmad Namunah', 'Person', 'sy', '1958'],
    ['Boreal Shipping Trading LLC', 'Company', 'ae', ''],
    ['Eastern Steppe Minerals JSC', 'Company', 'kz', ''],
    ['Caspian Demo Petroleum Ltd', 'Organization', 'ir', ''],
  ];
  unrelated.forEach(([name, schema, country, born], k) =>
    lines.push(
      entity(`other-${k + 1}`, schema, name, {
        ...(schema === 'Person' ? { birthDate: [born], nationality: [country] } : { country: [country] }),
        topics: ['sanction'],
      }),
    ),
  );
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
