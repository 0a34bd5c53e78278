// PEP/sanctions screening. `screen` screens one company: its name, its active roles and the
// holders of its latest shareholder year (screening-subjects.ts). `match` screens up to 100
// names a caller sends (persons or organisations that need not be in our store), answering
// in the shape of yente's /match. Candidates come from the store's indexes (≤ 50 per subject,
// one statement for all subjects); the domain matcher scores them. Results are *possible*
// matches for a person to review, never verdicts. Every answer states the list versions and
// the algorithm version, so that a compliance decision can be reproduced.
import type { Clock } from '../../domain/clock.ts';
import { canonicalOrgNumber, isValidOrgNumber, ORG_NUMBER_FORMAT, type Country } from '../../domain/org-number.ts';
import {
  ALGORITHM,
  DEFAULT_THRESHOLD,
  prepareEntity,
  rankCandidates,
  THRESHOLD_BOUNDS,
  type PreparedEntity,
} from '../../domain/screening/index.ts';
import type { MatchExplanation, MatchType, ScreeningSubject } from '../../domain/screening/types.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { CompanyReadRepository } from '../../store/company-reads.ts';
import type { CvrOwnerRepository } from '../../store/cvr-owners.ts';
import type { SanctionList, ScreeningRepository, StoredSanctionEntity } from '../../store/screening.ts';
import type { PositionRow, ShareholderRepository } from '../../store/shareholders.ts';
import type { ScreeningAuditRepository } from '../../store/screening-audit.ts';
import { companyAuditEntry, matchAuditEntry, type AuditCaller } from './screening-audit.ts';
import { matchResponse, type MatchQuery, type MatchRequest } from './screening-match.ts';
import { subjectsOf } from './screening-subjects.ts';

export interface ScreeningDeps {
  sanctions: ScreeningRepository;
  companyReads: CompanyReadRepository;
  shareholders: ShareholderRepository;
  cvrOwners: Pick<CvrOwnerRepository, 'ownersOf'>;
  clock: Clock;
  /** The audit trail: a call made with an `audit` caller is recorded here. */
  audit?: Pick<ScreeningAuditRepository, 'record'>;
}

interface ScreeningMatch {
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

/** The audit trail of a screening answer: what was screened against, with which matcher. */
const listsOf = (lists: SanctionList[]) =>
  lists.map((l) => ({
    name: l.name,
    version: l.version,
    entityCount: l.entityCount,
    lastSync: l.syncedAt.toISOString(),
  }));

/**
 * A Danish legal owner (CVR) as a holder to screen: a person by name only (CVR has no birth
 * year), a Danish company with its CVR number, any other owner as 'foreign' (screened as both).
 */
const cvrHolder = (o: Awaited<ReturnType<CvrOwnerRepository['ownersOf']>>[number]): PositionRow => ({
  shareClass: '',
  holderType: o.ownerType === 'person' ? 'person' : o.ownerType === 'company' ? 'company' : 'foreign',
  holderName: o.ownerName,
  holderOrgNumber: o.ownerCvr,
  holderBirthYear: null,
  postalCode: null,
  postalPlace: null,
  countryCode: o.ownerType === 'company' ? 'DK' : null,
  shareCount: 0,
  totalShares: 0,
  year: 0,
});

const NO_LIST_MESSAGE = 'No sanctions or PEP list is loaded: nothing was screened against (run ncd sync sanctions)';

export function createScreeningService(deps: ScreeningDeps) {
  const { sanctions, companyReads, shareholders, cvrOwners, clock } = deps;
  const cache = new PreparedCache(20_000);

  async function latestHolders(country: Country, orgNumber: string): Promise<PositionRow[]> {
    if (country === 'DK') return (await cvrOwners.ownersOf(orgNumber)).map(cvrHolder);
    if (country !== 'NO') return []; // Aksjonærregisteret is Norwegian
    const [year] = await shareholders.yearsOf(orgNumber);
    if (year === undefined) return [];
    return shareholders.positions(orgNumber, { year, includePersons: true });
  }

  /** Ranked candidates (at or above `cutoff`) for each subject, in subject order. */
  async function rankAll(subjects: ScreeningSubject[], cutoff: number, hasLists: boolean) {
    const candidates = hasLists
      ? await sanctions.candidates(subjects.map((s) => ({ kind: s.kind, name: s.name })))
      : [];
    const perSubject = subjects.map(() => [] as PreparedEntity<StoredSanctionEntity>[]);
    for (const c of candidates) perSubject[c.subject].push(cache.get(c.entity));
    return subjects.map((s, i) => rankCandidates(s, perSubject[i], cutoff));
  }

  return {
    async screen(country: Country, rawOrgNumber: string, opts: { threshold?: number; audit?: AuditCaller } = {}) {
      const orgNumber = canonicalOrgNumber(country, rawOrgNumber);
      if (!isValidOrgNumber(country, orgNumber))
        throw invalid('params.orgNumber', `must be ${ORG_NUMBER_FORMAT[country]}`);
      const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
      const [company] = await companyReads.load(country, [orgNumber], { roles: true, financialsLimit: 0 });
      if (!company) throw new ApiError('company_not_found');
      const [holders, lists] = await Promise.all([latestHolders(country, orgNumber), sanctions.lists()]);
      const subjects = subjectsOf(company, holders);
      const ranked = await rankAll(
        subjects.map((s) => ({ name: s.name, kind: s.nameKind, birthYear: s.birthYear, countries: s.countries })),
        threshold,
        lists.length > 0,
      );

      const matches: ScreeningMatch[] = [];
      subjects.forEach((s, i) => {
        for (const { entity: e, result } of ranked[i]) {
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

      const result = {
        orgNumber,
        country,
        companyName: company.row.name,
        screenedAt: clock.now().toISOString(),
        threshold,
        algorithm: ALGORITHM,
        lists: listsOf(lists),
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
        ...(lists.length ? {} : { message: NO_LIST_MESSAGE }),
      };
      if (opts.audit && deps.audit) await deps.audit.record(companyAuditEntry(opts.audit, result));
      return result;
    },

    /**
     * Screens the caller's entities (yente /match shape): per query the best `limit` candidates
     * scoring at least THRESHOLD_BOUNDS.min, each with `match` = score ≥ threshold.
     */
    async match(request: MatchRequest, audit?: AuditCaller) {
      const threshold = request.threshold ?? DEFAULT_THRESHOLD;
      const keys = Object.keys(request.queries);
      const queries: MatchQuery[] = keys.map((k) => request.queries[k]);
      const lists = await sanctions.lists();
      const ranked = await rankAll(
        queries.map((q, i) => matchResponse.subjectOf(q, keys[i])),
        THRESHOLD_BOUNDS.min,
        lists.length > 0,
      );
      const result = {
        ...matchResponse.shape(keys, queries, ranked, { threshold, limit: request.limit, lists }),
        screenedAt: clock.now().toISOString(),
        algorithm: ALGORITHM,
        lists: listsOf(lists),
        ...(lists.length ? {} : { message: NO_LIST_MESSAGE }),
      };
      if (audit && deps.audit) await deps.audit.record(matchAuditEntry(audit, result));
      return result;
    },
  };
}
