// A registry that answers from recorded brreg payloads (test/fixtures/brreg, regnskap), with the
// answers a test sets per number: known, deleted, unknown (404), removed (410), or a failure of
// one part (core, roles, sub-units, accounts). Every call is logged in order.
import { readFileSync } from 'node:fs';
import type { LiveFetchClient } from '../../../src/services/companies/live-fetch.ts';
import type { EnhetLookup } from '../../../src/sources/brreg/client.ts';
import type { BrregEnhet, BrregRegnskap, BrregRoller, BrregUnderenhet } from '../../../src/sources/brreg/types.ts';
import { UpstreamError, type UpstreamFailure } from '../../../src/sources/upstream-http.ts';

const fixture = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${file}`, import.meta.url), 'utf8')) as T;

const ENHET = fixture<BrregEnhet>('brreg/enheter-details-response.json');
const DELETED = fixture<BrregEnhet>('brreg/enheter-details-deleted-response.json');
const ROLLER = fixture<BrregRoller>('brreg/enheter-roller-person-response.json');
const REGNSKAP = fixture<BrregRegnskap[]>('regnskap/regnskap-test-fixture-OrgnrResponseDefault.json');

/** The recorded unit under another number (what a bulk dump would have held for it). */
export const recordedEnhet = (orgNumber: string): BrregEnhet => ({
  ...structuredClone(ENHET),
  organisasjonsnummer: orgNumber,
});

export type BrregPart = 'core' | 'search' | 'roles' | 'subUnits' | 'accounts';

type Entry = { kind: 'found' | 'deleted'; enhet: BrregEnhet } | { kind: 'gone' };

export class FakeBrreg implements LiveFetchClient {
  /** Every request as `part:number` (`search:a,b` for the batched core search). */
  readonly calls: string[] = [];
  private readonly units = new Map<string, Entry>();
  private readonly failures = new Map<string, UpstreamFailure>();

  /** A registered unit, with filed accounts unless `accounts` is false. */
  add(orgNumber: string, opts: { name?: string; accounts?: boolean } = {}): this {
    const enhet: BrregEnhet = { ...recordedEnhet(orgNumber), navn: opts.name ?? ENHET.navn };
    if (opts.accounts === false) delete enhet.sisteInnsendteAarsregnskap;
    else enhet.sisteInnsendteAarsregnskap = '2019';
    this.units.set(orgNumber, { kind: 'found', enhet });
    return this;
  }

  /** A deleted unit: brreg answers 200 with `slettedato`, and its search leaves it out. */
  addDeleted(orgNumber: string): this {
    this.units.set(orgNumber, { kind: 'deleted', enhet: { ...DELETED, organisasjonsnummer: orgNumber } });
    return this;
  }

  /** Removed from open data for legal reasons: 410 Gone. */
  remove(orgNumber: string): this {
    this.units.set(orgNumber, { kind: 'gone' });
    return this;
  }

  /** The next requests of this part for this number (`*`: any number) fail with `kind`. */
  fail(part: BrregPart, orgNumber: string, kind: UpstreamFailure = 'timeout'): this {
    this.failures.set(`${part}:${orgNumber}`, kind);
    return this;
  }

  heal(): this {
    this.failures.clear();
    return this;
  }

  /** How many requests of a part were made (for one number, or in all). */
  count(part: BrregPart, orgNumber?: string): number {
    return this.calls.filter((c) => c.startsWith(`${part}:`) && (orgNumber === undefined || c.includes(orgNumber)))
      .length;
  }

  private async answer<T>(part: BrregPart, key: string, value: () => T): Promise<T> {
    this.calls.push(`${part}:${key}`);
    await Promise.resolve(); // a real request never answers synchronously
    const kind = this.failures.get(`${part}:${key}`) ?? this.failures.get(`${part}:*`);
    if (kind) throw new UpstreamError(kind, `fake brreg: ${part} ${key} failed (${kind})`);
    return value();
  }

  getEnhet(orgNumber: string): Promise<EnhetLookup> {
    return this.answer('core', orgNumber, (): EnhetLookup => {
      const u = this.units.get(orgNumber);
      if (!u) return { kind: 'not-found' };
      return u.kind === 'gone' ? { kind: 'gone' } : { kind: u.kind, enhet: structuredClone(u.enhet) };
    });
  }

  searchEnheter(orgNumbers: string[]): Promise<BrregEnhet[]> {
    return this.answer('search', orgNumbers.join(','), () =>
      orgNumbers.flatMap((n) => {
        const u = this.units.get(n);
        return u?.kind === 'found' ? [structuredClone(u.enhet)] : [];
      }),
    );
  }

  getRoller(orgNumber: string): Promise<BrregRoller> {
    return this.answer('roles', orgNumber, () => structuredClone(ROLLER));
  }

  subUnitsOf(orgNumber: string): Promise<BrregUnderenhet[]> {
    return this.answer('subUnits', orgNumber, () => []);
  }

  getRegnskap(orgNumber: string): Promise<BrregRegnskap[]> {
    return this.answer('accounts', orgNumber, () =>
      REGNSKAP.map((r) => ({ ...r, virksomhet: { ...r.virksomhet, organisasjonsnummer: orgNumber } })),
    );
  }
}
