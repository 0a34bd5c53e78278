// GET /api/health: the public liveness answer and the diagnostic shape a matching X-Sync-Secret
// unlocks (sync runs per source, upstream protection, caches, memory).
import { Type } from 'typebox';
import { StringEnum } from './common.ts';
import { HEALTH_EXAMPLES } from './examples.ts';

const DataSource = Type.Object({
  lastSync: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'End (or start, while running) of the latest run; null = never synced',
  }),
  status: Type.String({
    description:
      'ok | error | running | never | degraded (an ok run that kept the previous data of some parts, listed in tables)',
  }),
  recordsProcessed: Type.Integer(),
  lastSuccess: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  message: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'Short reason when the latest run failed, or what part of an ok run did not succeed (e.g. a statistics table whose previous figures were kept)',
    }),
  ),
  tables: Type.Optional(
    Type.Array(
      Type.Object({
        table: Type.String({ description: "The bureau's table id" }),
        problem: Type.String({
          description: 'What did not fit or failed: the previous figures of the table were kept',
        }),
      }),
      { description: 'degraded: the tables of the run whose previous figures were kept (statistics:XX)' },
    ),
  ),
  skipped: Type.Optional(
    Type.Object(
      {
        total: Type.Integer({ description: 'Filings skipped so far' }),
        latest: Type.Array(
          Type.Object({
            filing: Type.String({
              description: "The registry's id of the filing (PRH businessId:financialDate, Bolagsverket dokumentId)",
            }),
            orgNumber: Type.String(),
            reason: Type.String({
              description:
                'Why it could not be read (malformed, truncated, no report in the ZIP, unknown taxonomy, a figure that does not parse, …)',
            }),
            at: Type.String({ format: 'date-time' }),
          }),
          { description: 'The most recent, newest first' },
        ),
      },
      {
        description:
          'prh-financials, bolagsverket-financials: filed documents the job could not read; the company keeps its other filings',
      },
    ),
  ),
  notScheduled: Type.Optional(
    Type.String({
      description: "Why the scheduler does not run this source's job here (e.g. its credentials are not set)",
    }),
  ),
});

export const Health = Type.Object(
  {
    status: Type.String({ description: '"ok", or "error" with status 503' }),
    timestamp: Type.Optional(Type.String({ format: 'date-time' })),
    database: Type.Optional(Type.String()),
    engine: Type.Optional(Type.String()),
    records: Type.Optional(
      Type.Object({
        companies: Type.Integer(),
        financials: Type.Integer(),
        roles: Type.Integer(),
        inspections: Type.Integer(),
        licenses: Type.Integer(),
        procurementNotices: Type.Integer(),
      }),
    ),
    dataSources: Type.Optional(
      Type.Record(Type.String(), DataSource, {
        description:
          'One entry per source: brreg-updates, brreg-snapshot, regnskap, shareholders, inspections, licenses, prh, prh-financials, bolagsverket, bolagsverket-financials, sanctions, domains, coverage, statistics:NO, statistics:SE, statistics:FI, statistics:DK (and `sanctions:<list>` per screening list)',
      }),
    ),
    upstreams: Type.Optional(
      Type.Array(
        Type.Object({
          host: Type.String(),
          breaker: StringEnum(['closed', 'open', 'half-open'] as const),
          ratePerSecond: Type.Integer({ description: 'Shared request budget of the host (UPSTREAM_RATE_PER_SECOND)' }),
          shortCircuited: Type.Integer({ description: 'Requests answered at once by the open breaker since start' }),
          throttled: Type.Integer({ description: 'Requests refused for want of the shared budget since start' }),
          failures: Type.Integer({ description: "Failures in the breaker's rolling window" }),
        }),
        { description: 'Protection of the registries behind live fetches (README "Upstream protection")' },
      ),
    ),
    liveFetch: Type.Optional(
      Type.Object({
        negativeCacheHours: Type.Number(),
        rememberedNotFound: Type.Integer({ description: 'Numbers currently answered 404 without asking brreg' }),
        dailyBudgets: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()]), {
          description: 'Upstream requests per key and UTC day by tier; null is unlimited',
        }),
      }),
    ),
    recordCache: Type.Optional(
      Type.Object(
        {
          entries: Type.Integer(),
          bytes: Type.Integer({ description: 'Estimated memory of the cached bodies' }),
          maxEntries: Type.Integer({ description: 'RECORD_CACHE_ENTRIES (0: off)' }),
          maxBytes: Type.Integer({ description: 'RECORD_CACHE_MB in bytes' }),
          hits: Type.Integer(),
          misses: Type.Integer(),
          hitRate: Type.Number({ description: 'hits / (hits + misses) since start' }),
          capacityEvictions: Type.Integer({ description: 'Least recently used records dropped for room' }),
          invalidations: Type.Integer({ description: 'Cached records dropped because they changed' }),
          bypassed: Type.Integer({ description: 'Lookups not served from the cache while it was not known fresh' }),
          following: Type.Boolean({ description: 'The last change poll began within 1 s: the cache serves' }),
        },
        { description: 'This process\'s cache of serialised company records (README "Record cache")' },
      ),
    ),
    feedReadAhead: Type.Optional(
      Type.Object(
        {
          held: Type.Integer({ description: 'Pages read ahead and not yet asked for' }),
          started: Type.Integer({ description: 'Next pages read for clients following a cursor, since start' }),
          handedOver: Type.Integer({ description: 'Requests answered with a page read ahead' }),
          expired: Type.Integer({ description: 'Pages asked for more than 1 s after their read began, read again' }),
          dropped: Type.Integer({ description: 'Pages dropped unasked: a write through this process, or room' }),
        },
        { description: 'Change-feed pages read ahead for clients draining it (README "Draining the feed")' },
      ),
    ),
    replicas: Type.Optional(
      Type.Array(
        Type.Object({
          host: Type.String({ description: 'host:port of the replica (never its user or password)' }),
          lagMs: Type.Union([Type.Integer(), Type.Null()], {
            description: 'Replay lag, from its replayed LSN against the primary; null while it cannot be reached',
          }),
          inRotation: Type.Boolean({
            description: 'Serving reads: in recovery, reachable, and lagging at most READ_REPLICA_MAX_LAG_MS',
          }),
          inRecovery: Type.Union([Type.Boolean(), Type.Null()], {
            description: 'pg_is_in_recovery() as the replica last answered it',
          }),
          reads: Type.Integer({ description: 'Read connections this process gave it, since start' }),
        }),
        { description: 'The read replicas of DATABASE_READ_URL (README "Scaling out"); empty without them' },
      ),
    ),
    memory: Type.Optional(
      Type.Object(
        {
          rssMb: Type.Integer({ description: "Resident set size (with the embedded engine's thread)" }),
          heapTotalMb: Type.Integer({ description: 'JavaScript heap reserved (main thread)' }),
          heapUsedMb: Type.Integer({ description: 'JavaScript heap in use (main thread)' }),
          externalMb: Type.Integer({ description: 'Memory outside the heap held by JavaScript objects' }),
          arrayBuffersMb: Type.Integer({ description: 'Of which buffers (cached bodies, sockets)' }),
        },
        { description: "This process's memory, in MiB" },
      ),
    ),
  },
  { examples: HEALTH_EXAMPLES },
);

/**
 * 503: the database probe failed or did not answer in time. `status` stays `"error"` as Orakel's
 * clients expect; `code` (and `error`) are those of the error catalogue's `service_unavailable`.
 */
export const HealthUnavailable = Type.Object(
  {
    status: StringEnum(['error'] as const),
    error: Type.String(),
    code: StringEnum(['service_unavailable'] as const),
    requestId: Type.Optional(Type.String()),
  },
  {
    description: 'The database did not answer the probe; retry after `Retry-After` seconds.',
    examples: [
      {
        status: 'error',
        error: 'Service unavailable',
        code: 'service_unavailable',
        requestId: '6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f',
      },
    ],
  },
);

export const HealthHeaders = Type.Object({ 'x-sync-secret': Type.Optional(Type.String()) });
