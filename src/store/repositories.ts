// Every repository, built on the primary's Kysely instance; the read repositories of the routes
// that replicas serve (lookups, search, the feed, events, screening) once more on `readDb`.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { createApiKeyRepository } from './access/api-keys.ts';
import { createHealthRepository } from './ops/health.ts';
import { createReferenceRepository } from './reference.ts';
import type { Database } from './engine/schema.ts';
import { createSyncRunRepository } from './ops/sync-runs.ts';
import { createUsageRepository } from './access/usage.ts';
import { createAccessRequestRepository } from './access/access-requests.ts';
import { createCompanyReadRepository } from './company-reads.ts';
import { createCompanyLookupRepository } from './company-lookup-row.ts';
import { createCompanyWriteRepository } from './company-writes.ts';
import { createSyncSeenRepository } from './ops/sync-seen.ts';
import { createDeferredIndexes } from './engine/deferred-indexes.ts';
import { createWebProfileRepository } from './web-profile.ts';
import { createDestinationRepository } from './destinations.ts';
import { createCrmWritebackRepository } from './crm-writebacks.ts';
import { createMarketingProtectionRepository } from './marketing-protection.ts';
import { createChangeFeedRepository } from './change-feed.ts';
import { createCompanySearchRepository } from './company-search.ts';
import { createCompanySuggestRepository } from './company-suggest.ts';
import { createShareholderRepository } from './shareholders.ts';
import { createOwnershipChainRepository } from './ownership-chains.ts';
import { createGroupRepository } from './groups.ts';
import { createInspectionRepository } from './inspections.ts';
import { createLicenseRepository } from './licenses.ts';
import { createScreeningRepository } from './screening.ts';
import { createJobLeaseRepository } from './ops/job-leases.ts';
import { createCoverageRepository } from './ops/coverage.ts';
import { createLiveFetchMissRepository } from './live-fetch-misses.ts';
import { createCompanyChangeSignal } from './company-changes.ts';
import { createStatisticsRepository } from './statistics.ts';
import { createOAuthRepository } from './access/oauth.ts';
import { createProcurementRepository } from './procurement.ts';
import { createEventLogRepository } from './events/event-log.ts';
import { createWatchlistRepository } from './watchlists.ts';
import { createCvrOwnerRepository } from './cvr-owners.ts';
import { createCompanyNameRepository } from './company-names.ts';
import { createScreeningStateRepository } from './events/screening-states.ts';
import { createDemoDataRepository } from './demo-data.ts';
import { createEvidenceRepository } from './evidence.ts';
import { createScreeningAuditRepository } from './screening-audit.ts';
import { createFinancialFilingRepository } from './financial-filings.ts';
import type { ReadRouter } from './engine/read-replicas.ts';

interface RepositoryOptions {
  /** The pg Pool of a PostgreSQL server, for the COPY of bulk loads (none on PGlite). */
  copyPool?: pg.Pool;
  /** Replicas in rotation, else the primary (store.readDb). */
  readDb?: Kysely<Database>;
  /** Told of this process's company writes, so its next reads see them. */
  replicas?: Pick<ReadRouter, 'noteWrite'>;
}

export function createRepositories(db: Kysely<Database>, opts: RepositoryOptions = {}) {
  const { copyPool, readDb = db, replicas } = opts;
  /** Writes through this process announce the companies they changed (record caches evict them). */
  const companyChanges = createCompanyChangeSignal();
  if (replicas) companyChanges.subscribe(() => replicas.noteWrite());
  return {
    companyChanges,
    /**
     * Read-only twins for the routes a replica may serve. A write path (sync, live fetch,
     * screening runs, watchlist delivery) keeps using the primary repositories below.
     */
    replica: {
      companyReads: createCompanyReadRepository(readDb),
      companyLookups: createCompanyLookupRepository(readDb),
      companySearch: createCompanySearchRepository(readDb),
      companySuggest: createCompanySuggestRepository(readDb),
      changeFeed: createChangeFeedRepository(readDb),
      eventLog: createEventLogRepository(readDb),
      screening: createScreeningRepository(readDb),
      companyNames: createCompanyNameRepository(readDb),
    },
    apiKeys: createApiKeyRepository(db),
    usage: createUsageRepository(db),
    syncRuns: createSyncRunRepository(db, () => companyChanges.changed({ all: true })),
    health: createHealthRepository(db),
    reference: createReferenceRepository(db),
    accessRequests: createAccessRequestRepository(db),
    companyReads: createCompanyReadRepository(db),
    companyLookups: createCompanyLookupRepository(db),
    companyWrites: createCompanyWriteRepository(db, companyChanges, { copyPool }),
    syncSeen: createSyncSeenRepository(db),
    deferredIndexes: createDeferredIndexes(db),
    webProfile: createWebProfileRepository(db),
    destinations: createDestinationRepository(db),
    crmWritebacks: createCrmWritebackRepository(db),
    marketingProtection: createMarketingProtectionRepository(db, companyChanges),
    companySearch: createCompanySearchRepository(db),
    companySuggest: createCompanySuggestRepository(db),
    changeFeed: createChangeFeedRepository(db),
    shareholders: createShareholderRepository(db),
    ownershipChains: createOwnershipChainRepository(db),
    groups: createGroupRepository(db),
    inspections: createInspectionRepository(db),
    licenses: createLicenseRepository(db),
    screening: createScreeningRepository(db),
    jobLeases: createJobLeaseRepository(db),
    liveFetchMisses: createLiveFetchMissRepository(db),
    coverage: createCoverageRepository(db),
    statistics: createStatisticsRepository(db),
    oauth: createOAuthRepository(db),
    procurement: createProcurementRepository(db),
    eventLog: createEventLogRepository(db),
    watchlists: createWatchlistRepository(db),
    cvrOwners: createCvrOwnerRepository(db),
    companyNames: createCompanyNameRepository(db),
    screeningStates: createScreeningStateRepository(db),
    demoData: createDemoDataRepository(db),
    evidence: createEvidenceRepository(db),
    screeningAudit: createScreeningAuditRepository(db),
    financialFilings: createFinancialFilingRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
