// PEP/sanctions screening of one company: its name, its active roles and the holders of its
// latest shareholder year are screened against every loaded list. Candidates come from the
// store's indexes (≤ 50 per subject, one statement for all subjects); the domain matcher
// scores them. Results are *possible* matches for a person to review, never verdicts.
import type { AppContext } from '../context.ts';
import { canonicalOrgNumber, isValidOrgNumber, ORG_NUMBER_FORMAT, type Country } from '../domain/org-number.ts';
import {
  DEFAULT_THRESHOLD,
  normaliseName,
  prepareEntity,
  rankCandidates,
  type PreparedEntity,
} from '../domain/screening/index.ts';
import type { MatchExplanation, MatchType, NameKind } from '../domain/screening/types.ts';
import { ApiError, invalid } from '../errors.ts';
import type { StoredCompany } from '../store/company-reads.ts';
import type { StoredSanctionEntity } from '../store/sanctions.ts';
import type { PositionRow } from '../store/shareholders.ts';

export type SubjectKind = 'company' | 'person' | 'organisation';

export interface ScreenedSubject {
  id: string;
  kind: SubjectKind;
  /** The first reason the subject is screened: 'company', 'role:DAGL', 'shareholder'. */
  role: string;
  /** Every reason (a CEO who is also a shareholder: ['role:DAGL', 'shareholder']). */
  roles: string[];
  name: string;
  /** Persons only, when known; never a full birth date. */
  birthYear?: number;
}

/** A subject with what the matcher needs (not part of the response). */
export interface Subject extends ScreenedSubject {
  nameKind: NameKind;
  countries: string[];
  key: string;
}

export interface ScreeningMatch {
  subject: string;
  list: string;
  entityId: string;
  entityName: string;
  matchedName: string;
  schema: string;
  topics: string[];
  datasets: string[];
  score: number;
  matchType: MatchType;
  explanation: MatchExplanation;
}

/**
 * Roles held by service providers, not by people who run or control the company: the auditor
 * and the accountant are not screened.
 */
const SERVICE_ROLES = new Set(['REVI', 'REGN']);

const iso2 = (c: string | null | undefined) => (c && /^[A-Za-z]{2}$/.test(c) ? [c.toLowerCase()] : []);
const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The subjects of a company, one per distinct person or organisation. */
export function subjectsOf(company: StoredCompany, holders: PositionRow[]): Subject[] {
  const out: Subject[] = [];
  const byKey = new Map<string, Subject>();
  let persons = 0;
  let organisations = 0;
  const add = (s: Omit<Subject, 'id' | 'roles'>) => {
    const seen = byKey.get(s.key);
    if (seen) {
      if (!seen.roles.includes(s.role)) seen.roles.push(s.role);
      return;
    }
    const id = s.kind === 'company' ? 'company' : s.kind === 'person' ? `p${++persons}` : `o${++organisations}`;
    const subject: Subject = { ...s, id, roles: [s.role] };
    byKey.set(s.key, subject);
    out.push(subject);
  };
  const { row } = company;
  add({
    kind: 'company',
    nameKind: 'organisation',
    role: 'company',
    name: clean(row.name),
    countries: iso2(row.country),
    key: `org:${row.org_number}`,
  });
  for (const r of company.roles) {
    if (SERVICE_ROLES.has(r.role_type_code)) continue;
    const role = `role:${r.role_type_code}`;
    const person = [r.person_first_name, r.person_middle_name, r.person_last_name].map(clean).filter(Boolean).join(' ');
    if (person) {
      const birthYear = r.person_birth_year ?? undefined;
      add({
        kind: 'person',
        nameKind: 'person',
        role,
        name: person,
        birthYear,
        countries: [],
        key: `person:${person.toLowerCase()}:${birthYear ?? ''}`,
      });
    } else if (clean(r.entity_name)) {
      const name = clean(r.entity_name);
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role,
        name,
        countries: [],
        key: r.entity_org_number ? `org:${r.entity_org_number}` : `orgname:${name.toLowerCase()}`,
      });
    }
  }
  for (const h of holders) {
    const name = clean(h.holderName);
    if (!name) continue;
    if (h.holderType === 'person') {
      const birthYear = h.holderBirthYear ?? undefined;
      add({
        kind: 'person',
        nameKind: 'person',
        role: 'shareholder',
        name,
        birthYear,
        countries: [],
        key: `person:${name.toLowerCase()}:${birthYear ?? ''}`,
      });
    } else if (h.holderType === 'company' || normaliseName(name, 'organisation').legalForms.length > 0) {
      const key = h.holderOrgNumber ? `org:${h.holderOrgNumber}` : `orgname:${name.toLowerCase()}`;
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role: 'shareholder',
        name,
        countries: iso2(h.countryCode),
        key,
      });
    } else {
      // A foreign holder without a legal form may be a person or a company: screen it as both.
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role: 'shareholder',
        name,
        countries: iso2(h.countryCode),
        key: `orgname:${name.toLowerCase()}`,
      });
      add({
        kind: 'person',
        nameKind: 'person',
        role: 'shareholder',
        name,
        countries: [],
        key: `person:${name.toLowerCase()}:`,
      });
    }
  }
  return out;
}

/** Prepared (normalised) list entities by version: the same entities recur across requests. */
class PreparedCache {
  private readonly map = new Map<string, PreparedEntity<StoredSanctionEntity>>();
  constructor(private readonly capacity: number) {}

  get(e: StoredSanctionEntity): PreparedEntity<StoredSanctionEntity> {
    let p = this.map.get(e.versionKey);
    if (p) {
      this.map.delete(e.versionKey); // most recently used last
    } else {
      p = prepareEntity(e);
      if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value!);
    }
    this.map.set(e.versionKey, p);
    return p;
  }
}

export function createScreeningService(ctx: AppContext) {
  const repo = ctx.repos.sanctions;
  const cache = new PreparedCache(20_000);

  async function latestHolders(country: Country, orgNumber: string): Promise<PositionRow[]> {
    if (country !== 'NO') return []; // Aksjonærregisteret is Norwegian
    const [year] = await ctx.repos.shareholders.yearsOf(orgNumber);
    if (year === undefined) return [];
    return ctx.repos.shareholders.positions(orgNumber, { year, includePersons: true });
  }

  return {
    async screen(country: Country, rawOrgNumber: string, opts: { threshold?: number } = {}) {
      const orgNumber = canonicalOrgNumber(country, rawOrgNumber);
      if (!isValidOrgNumber(country, orgNumber))
        throw invalid('params.orgNumber', `must be ${ORG_NUMBER_FORMAT[country]}`);
      const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
      const [company] = await ctx.repos.companyReads.load(country, [orgNumber], { roles: true, financialsLimit: 0 });
      if (!company) throw new ApiError('company_not_found');
      const [holders, lists] = await Promise.all([latestHolders(country, orgNumber), repo.lists()]);
      const subjects = subjectsOf(company, holders);

      const candidates = lists.length
        ? await repo.candidates(subjects.map((s) => ({ kind: s.nameKind, name: s.name })))
        : [];
      const perSubject = subjects.map(() => [] as PreparedEntity<StoredSanctionEntity>[]);
      for (const c of candidates) perSubject[c.subject].push(cache.get(c.entity));

      const matches: ScreeningMatch[] = [];
      subjects.forEach((s, i) => {
        const ranked = rankCandidates(
          { name: s.name, kind: s.nameKind, birthYear: s.birthYear, countries: s.countries },
          perSubject[i],
          threshold,
        );
        for (const { entity: e, result } of ranked) {
          matches.push({
            subject: s.id,
            list: e.list,
            entityId: e.id,
            entityName: e.name,
            matchedName: result.matchedName,
            schema: e.schema,
            topics: e.topics,
            datasets: e.datasets,
            score: result.score,
            matchType: result.matchType,
            explanation: result.explanation,
          });
        }
      });
      matches.sort(
        (a, b) => b.score - a.score || a.subject.localeCompare(b.subject) || a.entityId.localeCompare(b.entityId),
      );

      return {
        orgNumber,
        country,
        companyName: company.row.name,
        screenedAt: ctx.clock.now().toISOString(),
        threshold,
        lists: lists.map((l) => ({
          name: l.name,
          version: l.version,
          entityCount: l.entityCount,
          lastSync: l.syncedAt.toISOString(),
        })),
        subjects: subjects.map(({ id, kind, role, roles, name, birthYear }) => ({
          id,
          kind,
          role,
          roles,
          name,
          ...(birthYear !== undefined ? { birthYear } : {}),
        })),
        matches,
        summary: {
          subjectsScreened: subjects.length,
          possibleMatches: matches.length,
          highestScore: matches.length ? matches[0].score : null,
          listsChecked: lists.length,
        },
        ...(lists.length
          ? {}
          : { message: 'No sanctions or PEP list is loaded: nothing was screened against (run ncd sync sanctions)' }),
      };
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
