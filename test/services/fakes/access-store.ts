// Projects, keys and tiers in memory, with the rules the SQL keeps: one active project per folded
// name, unique key prefixes, only active keys found, a key's project and tier joined on every read.
import type { Clock } from '../../../src/domain/clock.ts';
import {
  KeyPrefixCollisionError,
  ProjectNameTakenError,
  type ApiKeyRepository,
  type KeyRecord,
} from '../../../src/store/access/api-keys.ts';
import type { FakeUsage } from './usage-store.ts';

type NewProject = Parameters<ApiKeyRepository['createProject']>[0];
type Overrides = KeyRecord['overrides'];
type TierRow = KeyRecord['tierDefaults'];

interface Project {
  id: number;
  name: string;
  nameKey: string;
  email: string;
  tier: string;
  createdAt: Date;
  overrides: Overrides;
}

interface Key {
  id: number;
  projectId: number;
  hash: string;
  prefix: string;
  active: boolean;
  createdAt: Date;
  deactivatedAt: Date | null;
  rotatedFrom: string | null;
}

/** The tiers the first migration seeds (0001_foundation.sql). */
export const SEEDED_TIERS: Record<string, TierRow> = {
  free: {
    rateLimitPerMinute: 20,
    dailyLimit: 500,
    monthlyLimit: 5000,
    maxPageSize: 20,
    canPush: false,
    requireFilterOnSearch: true,
  },
  pro: {
    rateLimitPerMinute: 60,
    dailyLimit: 5000,
    monthlyLimit: 50000,
    maxPageSize: 100,
    canPush: true,
    requireFilterOnSearch: false,
  },
  enterprise: {
    rateLimitPerMinute: 120,
    dailyLimit: 0,
    monthlyLimit: 0,
    maxPageSize: 100,
    canPush: true,
    requireFilterOnSearch: false,
  },
  internal: {
    rateLimitPerMinute: 120,
    dailyLimit: 0,
    monthlyLimit: 0,
    maxPageSize: 100,
    canPush: true,
    requireFilterOnSearch: false,
  },
};

const NO_OVERRIDES: Overrides = { rateLimitPerMinute: null, dailyLimit: null, monthlyLimit: null, maxPageSize: null };

export class FakeApiKeys implements ApiKeyRepository {
  readonly tiers = new Map(Object.entries(SEEDED_TIERS));
  /** Projects that have a push destination (a used project is never reclaimed). */
  readonly withDestinations = new Set<number>();
  /** The next this many new keys collide with an existing prefix. */
  collisions = 0;
  private readonly projects: Project[] = [];
  private readonly keys: Key[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly usage: FakeUsage,
  ) {}

  /** Every key hash stored (a raw key must never be among them). */
  storedHashes(): string[] {
    return this.keys.map((k) => k.hash);
  }

  private newKey(projectId: number, hash: string, prefix: string, rotatedFrom: string | null) {
    if (this.collisions > 0 || this.keys.some((k) => k.prefix === prefix)) {
      this.collisions = Math.max(0, this.collisions - 1);
      throw new KeyPrefixCollisionError();
    }
    const id = this.keys.length + 1;
    this.keys.push({
      id,
      projectId,
      hash,
      prefix,
      active: true,
      createdAt: this.clock.now(),
      deactivatedAt: null,
      rotatedFrom,
    });
  }

  private record(k: Key | undefined): KeyRecord | undefined {
    if (!k?.active) return undefined;
    const p = this.projects.find((x) => x.id === k.projectId)!;
    return {
      keyId: k.id,
      keyPrefix: k.prefix,
      projectId: p.id,
      projectName: p.name,
      tier: p.tier,
      projectCreatedAt: p.createdAt,
      overrides: { ...p.overrides },
      tierDefaults: { ...this.tiers.get(p.tier)! },
    };
  }

  private deactivate(k: Key) {
    k.active = false;
    k.deactivatedAt = this.clock.now();
  }

  async findActiveByHash(keyHash: string) {
    return this.record(this.keys.find((k) => k.active && k.hash === keyHash));
  }

  async findActiveById(keyId: number) {
    return this.record(this.keys.find((k) => k.id === keyId));
  }

  async findActiveByPrefix(keyPrefix: string) {
    return this.record(this.keys.find((k) => k.active && k.prefix === keyPrefix));
  }

  async createProject(p: NewProject): Promise<{ projectId: number }> {
    if (this.projects.some((x) => x.nameKey === p.nameKey)) throw new ProjectNameTakenError();
    const id = this.projects.length + 1;
    this.newKey(id, p.keyHash, p.keyPrefix, null); // first: a collision rolls the whole project back
    this.projects.push({
      id,
      name: p.name,
      nameKey: p.nameKey,
      email: p.email,
      tier: p.tier,
      createdAt: this.clock.now(),
      overrides: { ...NO_OVERRIDES },
    });
    this.usage.open(id, p.today, p.monthStart);
    return { projectId: id };
  }

  async reclaimUnused(p: Pick<NewProject, 'nameKey' | 'email' | 'keyHash' | 'keyPrefix'>) {
    const project = this.projects.find(
      (x) => x.nameKey === p.nameKey && x.email.toLowerCase() === p.email.toLowerCase(),
    );
    if (!project || this.usage.total(project.id) !== 0 || this.withDestinations.has(project.id)) return undefined;
    if (project.tier !== 'free' || Object.values(project.overrides).some((v) => v !== null)) return undefined;
    const keys = this.keys.filter((k) => k.projectId === project.id);
    if (keys.length !== 1 || !keys[0].active) return undefined;
    this.newKey(project.id, p.keyHash, p.keyPrefix, null);
    this.deactivate(keys[0]);
    return { projectId: project.id, deactivated: keys[0].prefix, email: project.email, projectName: project.name };
  }

  async listKeys(opts: { project?: string; includeInactive?: boolean } = {}) {
    return this.keys
      .filter((k) => opts.includeInactive || k.active)
      .map((k) => ({ k, p: this.projects.find((x) => x.id === k.projectId)! }))
      .filter(({ p }) => !opts.project || p.nameKey === opts.project)
      .sort((a, b) => b.k.createdAt.getTime() - a.k.createdAt.getTime() || b.k.id - a.k.id)
      .map(({ k, p }) => ({
        keyPrefix: k.prefix,
        projectName: p.name,
        tier: p.tier,
        active: k.active,
        createdAt: k.createdAt,
        deactivatedAt: k.deactivatedAt,
        requests: this.usage.total(p.id),
      }));
  }

  async deactivateByPrefix(keyPrefix: string): Promise<boolean> {
    const k = this.keys.find((x) => x.active && x.prefix === keyPrefix);
    if (k) this.deactivate(k);
    return k !== undefined;
  }

  async rotate(oldKeyId: number, newHash: string, newPrefix: string) {
    const old = this.keys.find((k) => k.id === oldKeyId && k.active);
    if (!old) return undefined;
    this.newKey(old.projectId, newHash, newPrefix, old.prefix);
    this.deactivate(old);
    return { rotatedFrom: old.prefix };
  }

  async tierExists(tier: string): Promise<boolean> {
    return this.tiers.has(tier);
  }

  async setTier(projectId: number, tier: string): Promise<void> {
    this.projects.find((p) => p.id === projectId)!.tier = tier;
  }

  async setLimits(projectId: number, limits: Partial<Overrides>): Promise<void> {
    const p = this.projects.find((x) => x.id === projectId)!;
    for (const [k, v] of Object.entries(limits) as [keyof Overrides, number | null | undefined][])
      if (v !== undefined) p.overrides[k] = v;
  }
}

/** Requests for a higher tier, as stored. */
export class FakeAccessRequests {
  readonly rows: { id: number; status: string; created_at: Date; projectName: string; email: string }[] = [];
  constructor(private readonly clock: Clock) {}
  async create(r: {
    projectName: string;
    email: string;
    organisation: string | null;
    requestedTier: string;
    message: string | null;
  }) {
    const row = { id: this.rows.length + 1, status: 'pending', created_at: this.clock.now(), ...r };
    this.rows.push(row);
    return { id: row.id, status: row.status, created_at: row.created_at };
  }
}
