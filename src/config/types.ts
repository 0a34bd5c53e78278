// The shape of the parsed configuration: the process-wide settings, and one field or group per
// section file beside this one.
import type { CrmConfig } from './crm.ts';
import type { EvidenceConfig } from './evidence.ts';
import type { HttpLimits, TrustProxy } from './http.ts';
import type { MonitoringConfig } from './monitoring.ts';
import type { ReadReplicaConfig } from './read-replicas.ts';
import type { SyncConfig } from './sync.ts';
import type { LiveFetchConfig, UpstreamsConfig, WebProfileConfig } from './upstreams.ts';

export interface Config extends UpstreamsConfig, SyncConfig {
  port: number;
  host: string;
  baseUrl: string;
  /** False when BASE_URL is left at its default: public links then use the request's own host. */
  baseUrlConfigured: boolean;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL, READ_REPLICA_MAX_LAG_MS. */
  readReplicas: ReadReplicaConfig;
  dataDir: string;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so deployments (or test databases) can share one Redis. */
  redisPrefix: string;
  syncSecret: string | undefined;
  secretKey: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  trustProxy: TrustProxy;
  allowPrivateDestinations: boolean;
  trialDays: number;
  logLevel: string;
  /** json, or pretty (pino-pretty): LOG_FORMAT, default pretty when stdout is a terminal. */
  logFormat: 'json' | 'pretty';
  nodeEnv: string | undefined;
  upgradeUrl: string;
  /** Per-statement timeout on request paths, in ms. */
  statementTimeoutMs: number;
  /** HTTP server limits against abuse (slow-loris, oversized requests); see README "Reliability". */
  http: HttpLimits;
  /** Protection of the registries behind live fetches (lookups, enrich); see README "Upstream protection". */
  liveFetch: LiveFetchConfig;
  /** Web-profile crawler (ENRICHMENT_* env names kept for existing deployments). */
  webProfile: WebProfileConfig;
  /** Per-process cache of serialised company records (README "Record cache"); maxEntries 0 = off. */
  recordCache: { maxEntries: number; maxBytes: number; pollMs: number };
  /** Event log, event stream and watchlists; see README "Monitoring". */
  monitoring: MonitoringConfig;
  /** KYB evidence packs: the signing key and the retention; see README "Evidence packs". */
  evidence: EvidenceConfig;
  /** CRM destinations (HubSpot, Attio): API hosts and the HubSpot app; see README "CRM destinations". */
  crm: CrmConfig;
}
