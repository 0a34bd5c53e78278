// Composition of the use cases, built once per app: each factory gets only what it uses from
// the shared context. Config values read per call (baseUrl, upgradeUrl, the address policy) are
// passed as a narrowed view of the live config: the test harness sets the public URLs after
// listening, and tests flip the address policy.
import type { AppContext } from './context.ts';
import { createChangeFeedService } from '../services/change-feed/change-feed.ts';
import { createCompanyService } from '../services/companies/companies.ts';
import { createCoverageService } from '../services/ops/coverage.ts';
import { createDestinationService } from '../services/push/destinations.ts';
import { createGroupService } from '../services/ownership/groups.ts';
import { createHealthService } from '../services/ops/health.ts';
import { createInspectionService } from '../services/registers/inspections.ts';
import { createKeyAuthService } from '../services/access/key-auth.ts';
import { createKeyManagementService } from '../services/access/key-management.ts';
import { createLicenseService } from '../services/registers/licenses.ts';
import { createMarketContext } from '../services/registers/market-context.ts';
import { createPagination } from '../services/support/pagination.ts';
import { createPushService } from '../services/push/push.ts';
import { createCrmClients } from '../services/push/crm-clients.ts';
import { createCrmPush } from '../services/push/crm-push.ts';
import { createCrmWriteback } from '../services/push/crm-writeback.ts';
import { createHubspotInstall } from '../services/push/hubspot-install.ts';
import { createScreeningService } from '../services/screening/screening.ts';
import { createSearchService } from '../services/companies/search.ts';
import { createShareholderService } from '../services/ownership/shareholders.ts';
import { createUltimateOwnerService } from '../services/ownership/ultimate-owners.ts';
import { createOwnershipChangeService } from '../services/ownership/ownership-changes.ts';
import { createTransitiveHoldingService } from '../services/ownership/transitive-holdings.ts';
import { createWebProfileService } from '../services/registers/web-profile.ts';
import { createLiveFetchBudget } from '../services/support/live-fetch-budget.ts';
import { createRecordCache } from '../services/support/record-cache.ts';
import { createUpdatedAtFollower, repeatedAfter } from '../store/company-changes.ts';
import { POLL_MS as REPLICA_POLL_MS } from '../store/engine/read-replicas.ts';
import { createOAuthService } from '../services/access/oauth.ts';
import { createOAuthAuthorizeService } from '../services/access/oauth-authorize.ts';
import { createProcurementService } from '../services/registers/procurement.ts';
import { createMonitoringServices } from './monitoring.ts';
import { createCompanyMatchService } from '../services/company-match/company-match.ts';
import { createReconcileService } from '../services/company-match/reconcile.ts';
import { createEvidenceService } from '../services/evidence/evidence.ts';
import { createRegistryStatus } from '../services/evidence/registry-status.ts';
import { createScreeningAuditService } from '../services/screening/screening-audit.ts';
import { evidenceSnapshot } from './evidence-snapshot.ts';
import { softwareVersion } from './software-version.ts';
import { NO_CREDENTIALS as BOLAGSVERKET_NO_CREDENTIALS } from '../jobs/bolagsverket-financials.ts';
import type { Config } from '../config/index.ts';

export function createServices(ctx: AppContext) {
  const { repos, config, clock, log, reference, rateWindows } = ctx;
  /** The read repositories a replica may serve (the primary's when DATABASE_READ_URL is unset). */
  const reads = repos.replica;
  const keyAuth = createKeyAuthService({
    apiKeys: repos.apiKeys,
    usage: repos.usage,
    rateWindows,
    clock,
    log,
    secretKey: config.secretKey,
    config,
  });
  const pagination = createPagination({ rateWindows, secretKey: config.secretKey });
  const recordCache = createRecordCache({
    ...config.recordCache,
    // The follower reads the primary (its bound comes from the primary's open transactions);
    // with replicas, a change is reported again once any replica in rotation has replayed it.
    follower: ctx.store.replicas
      ? repeatedAfter(createUpdatedAtFollower(ctx.store.db), config.readReplicas.maxLagMs + REPLICA_POLL_MS)
      : createUpdatedAtFollower(ctx.store.db),
    signal: repos.companyChanges,
    log,
  });
  const market = createMarketContext({ reads: reads.companyReads, statistics: repos.statistics, reference, clock });
  const procurement = createProcurementService({
    procurement: repos.procurement,
    clock,
    pagination,
    syncRuns: repos.syncRuns,
  });
  const companies = createCompanyService({
    reference,
    reads: reads.companyReads,
    lookups: reads.companyLookups,
    danishOwners: reads.companyReads,
    writes: repos.companyWrites,
    brreg: ctx.upstreams.brreg,
    cvr: ctx.upstreams.cvr,
    cvrOwners: repos.cvrOwners,
    marketingProtection: repos.marketingProtection,
    market,
    clock,
    misses: repos.liveFetchMisses,
    budget: createLiveFetchBudget({
      windows: rateWindows,
      budgets: config.liveFetch.dailyBudget,
      now: () => clock.now(),
    }),
    negativeTtlMs: config.liveFetch.negativeTtlMs,
    cache: recordCache,
    procurement,
  });
  const destinations = createDestinationService({
    destinations: repos.destinations,
    resolver: ctx.resolver,
    clock,
    secretKey: config.secretKey,
    config,
  });
  const crmClients = createCrmClients({ destinations, repo: repos.destinations, clock, log, config });
  const changeFeed = createChangeFeedService({
    feed: reads.changeFeed,
    reads: reads.companyReads,
    reference,
    pagination,
    signal: repos.companyChanges,
  });
  const companyMatch = createCompanyMatchService({
    names: reads.companyNames,
    domains: reads.companySearch,
    // The embedded engine has one connection: a call's lookup statements take turns with other requests'.
    bounds: { concurrency: ctx.store.engine === 'embedded' ? 1 : 4, ...ctx.matchBounds },
  });
  const coverage = createCoverageService({
    coverage: repos.coverage,
    syncRuns: repos.syncRuns,
    clock,
    financialFilings: repos.financialFilings,
    notScheduled: notScheduledSources(config),
  });
  const keys = createKeyManagementService({
    apiKeys: repos.apiKeys,
    usage: repos.usage,
    accessRequests: repos.accessRequests,
    auth: keyAuth,
    rateWindows,
    clock,
    mailer: ctx.mailer,
    log,
    config,
  });
  const oauth = createOAuthService({
    oauth: repos.oauth,
    apiKeys: repos.apiKeys,
    rateWindows,
    clock,
    secretKey: config.secretKey,
  });
  return {
    keyAuth,
    keys,
    oauth,
    oauthAuthorize: createOAuthAuthorizeService({
      oauth: repos.oauth,
      tokens: oauth,
      keyAuth,
      keys,
      rateWindows,
      clock,
    }),
    pagination,
    market,
    search: createSearchService({
      search: reads.companySearch,
      reads: reads.companyReads,
      reference,
      pagination,
      market,
    }),
    changeFeed,
    companies,
    recordCache,
    destinations,
    push: createPushService({
      resolver: ctx.resolver,
      clock,
      log,
      config,
      companies,
      destinations,
      crm: createCrmPush(crmClients),
    }),
    crmWriteback: createCrmWriteback({
      jobs: repos.crmWritebacks,
      repo: repos.destinations,
      destinations,
      clients: crmClients,
      companies,
      clock,
      log,
      config,
    }),
    hubspotInstall: createHubspotInstall({ destinations, clock, secretKey: config.secretKey, config }),
    shareholders: createShareholderService({ shareholders: repos.shareholders, cvrOwners: repos.cvrOwners }),
    ultimateOwners: createUltimateOwnerService({ chains: repos.ownershipChains, shareholders: repos.shareholders }),
    ownershipChanges: createOwnershipChangeService({ chains: repos.ownershipChains, shareholders: repos.shareholders }),
    transitiveHoldings: createTransitiveHoldingService({
      chains: repos.ownershipChains,
      shareholders: repos.shareholders,
      direct: createShareholderService({ shareholders: repos.shareholders, cvrOwners: repos.cvrOwners }),
      pagination,
    }),
    groups: createGroupService({ groups: repos.groups }),
    webProfile: createWebProfileService({ webProfile: repos.webProfile }),
    inspections: createInspectionService({ inspections: repos.inspections, reference, pagination }),
    licenses: createLicenseService({ licenses: repos.licenses, clock, pagination }),
    screening: createScreeningService({
      sanctions: reads.screening,
      companyReads: reads.companyReads,
      shareholders: repos.shareholders,
      cvrOwners: repos.cvrOwners,
      clock,
      audit: repos.screeningAudit,
    }),
    screeningAudit: createScreeningAuditService({ audit: repos.screeningAudit, pagination, clock }),
    evidence: createEvidenceService({
      packs: repos.evidence,
      snapshot: evidenceSnapshot(ctx),
      ensureStored: (country, orgNumber, caller) => companies.lookup(country, orgNumber, { caller }),
      registryStatus: createRegistryStatus({
        brreg: ctx.upstreams.brreg,
        brregBaseUrl: config.brregBaseUrl,
        cvr: ctx.upstreams.cvr,
        cvrBaseUrl: config.cvr.baseUrl,
        now: () => clock.now(),
      }),
      signingKey: config.evidence.signingKey,
      retentionDays: config.evidence.retentionDays,
      dailyPacks: config.evidence.dailyPacks,
      software: softwareVersion(),
      urls: {
        brregBaseUrl: config.brregBaseUrl,
        prhBaseUrl: config.prhBaseUrl,
        bolagsverketBulkUrl: config.bolagsverketBulkUrl,
        cvrBaseUrl: config.cvr.baseUrl,
        sanctionsUrl: config.sanctionsUrl,
      },
      jwksUrl: () => `${config.baseUrl}/.well-known/jwks.json`,
      clock,
      pagination,
    }),
    coverage,
    procurement,
    ...createMonitoringServices(ctx, keyAuth), // events, stream, watchlists, delivery
    companyMatch,
    reconcile: createReconcileService({
      match: companyMatch,
      reads: reads.companyReads,
      suggest: reads.companySuggest,
      config,
    }),
    health: createHealthService({
      store: ctx.store,
      records: repos.health,
      coverage,
      companies,
      recordCache,
      feedReadAhead: changeFeed,
      upstreams: ctx.upstreams.guards,
      clock,
      syncSecret: config.syncSecret,
      statementTimeoutMs: config.statementTimeoutMs,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Health's reason for each source whose job the configuration keeps from being scheduled. */
function notScheduledSources(config: Pick<Config, 'bolagsverketApi'>): Record<string, string> {
  const bv = config.bolagsverketApi;
  return bv.clientId && bv.clientSecret ? {} : { 'bolagsverket-financials': BOLAGSVERKET_NO_CREDENTIALS };
}
