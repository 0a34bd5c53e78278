// Projects, their API keys (stored only as keyed hashes) and per-project limit overrides.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

export class ProjectNameTakenError extends Error {
  constructor() {
    super('projectName is already taken');
  }
}

export interface KeyRecord {
  keyId: number;
  keyPrefix: string;
  projectId: number;
  projectName: string;
  tier: string;
  projectCreatedAt: Date;
  overrides: {
    rateLimitPerMinute: number | null;
    dailyLimit: number | null;
    monthlyLimit: number | null;
    maxPageSize: number | null;
  };
  tierDefaults: {
    rateLimitPerMinute: number;
    dailyLimit: number;
    monthlyLimit: number;
    maxPageSize: number;
    canPush: boolean;
    requireFilterOnSearch: boolean;
  };
}

interface NewProject {
  name: string;
  nameKey: string;
  email: string;
  description: string | null;
  tier: string;
  keyHash: string;
  keyPrefix: string;
  today: string;
  monthStart: string;
}

const isUniqueViolation = (err: unknown, constraint: string) =>
  (err as { code?: string; constraint?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === constraint;

export class KeyPrefixCollisionError extends Error {}

export function createApiKeyRepository(db: Kysely<Database>) {
  const keyColumns = (qb: Kysely<Database>) =>
    qb
      .selectFrom('api_keys as k')
      .innerJoin('projects as p', 'p.id', 'k.project_id')
      .innerJoin('tiers as t', 't.name', 'p.tier')
      .select([
        'k.id as keyId',
        'k.key_prefix as keyPrefix',
        'p.id as projectId',
        'p.name as projectName',
        'p.tier',
        'p.created_at as projectCreatedAt',
        'p.rate_limit_per_minute as oRpm',
        'p.daily_limit as oDaily',
        'p.monthly_limit as oMonthly',
        'p.max_page_size as oPage',
        't.rate_limit_per_minute as tRpm',
        't.daily_limit as tDaily',
        't.monthly_limit as tMonthly',
        't.max_page_size as tPage',
        't.can_push as tPush',
        't.require_filter_on_search as tFilter',
      ])
      .where('k.active', '=', true);

  type Row = Awaited<ReturnType<ReturnType<typeof keyColumns>['executeTakeFirst']>>;
  const toRecord = (r: NonNullable<Row>): KeyRecord => ({
    keyId: r.keyId,
    keyPrefix: r.keyPrefix,
    projectId: r.projectId,
    projectName: r.projectName,
    tier: r.tier,
    projectCreatedAt: r.projectCreatedAt,
    overrides: { rateLimitPerMinute: r.oRpm, dailyLimit: r.oDaily, monthlyLimit: r.oMonthly, maxPageSize: r.oPage },
    tierDefaults: {
      rateLimitPerMinute: r.tRpm,
      dailyLimit: r.tDaily,
      monthlyLimit: r.tMonthly,
      maxPageSize: r.tPage,
      canPush: r.tPush,
      requireFilterOnSearch: r.tFilter,
    },
  });

  return {
    async findActiveByHash(keyHash: string): Promise<KeyRecord | undefined> {
      const row = await keyColumns(db).where('k.key_hash', '=', keyHash).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /** The key an OAuth grant is bound to, while it is active. */
    async findActiveById(keyId: number): Promise<KeyRecord | undefined> {
      const row = await keyColumns(db).where('k.id', '=', keyId).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async findActiveByPrefix(keyPrefix: string): Promise<KeyRecord | undefined> {
      const row = await keyColumns(db).where('k.key_prefix', '=', keyPrefix).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /** Creates the project, its usage row and its first key in one transaction. */
    async createProject(p: NewProject): Promise<{ projectId: number }> {
      try {
        return await db.transaction().execute(async (trx) => {
          const project = await trx
            .insertInto('projects')
            .values({ name: p.name, name_key: p.nameKey, email: p.email, description: p.description, tier: p.tier })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('project_usage')
            .values({ project_id: project.id, day: p.today, month: p.monthStart })
            .execute();
          await trx
            .insertInto('api_keys')
            .values({ project_id: project.id, key_hash: p.keyHash, key_prefix: p.keyPrefix, rotated_from: null })
            .execute();
          return { projectId: project.id };
        });
      } catch (err) {
        if (isUniqueViolation(err, 'projects_active_name_key')) throw new ProjectNameTakenError();
        if (isUniqueViolation(err, 'api_keys_key_prefix_key')) throw new KeyPrefixCollisionError();
        throw err;
      }
    },

    /**
     * Crash recovery of a registration: when a project of this name exists but was
     * never used — registered with the same e-mail, still on its first key, no request ever
     * counted, no destination — its key is deactivated and a new one issued for the same
     * project. This is what a client whose registration answer was lost (process killed after
     * the commit) needs; a project that was used in any way stays its owner's. Returns the
     * deactivated key's prefix, or undefined when the project is not reclaimable.
     */
    async reclaimUnused(p: Pick<NewProject, 'nameKey' | 'email' | 'keyHash' | 'keyPrefix'>) {
      try {
        return await db.transaction().execute(async (trx) => {
          const project = await trx
            .selectFrom('projects as p')
            .innerJoin('project_usage as u', 'u.project_id', 'p.id')
            .select(['p.id', 'p.email', 'p.name'])
            .where('p.name_key', '=', p.nameKey)
            .where('p.active', '=', true)
            .where(sql<boolean>`lower(p.email) = lower(${p.email})`)
            .where('u.total', '=', 0)
            // Never moved off the free tier or given limits by the operator: a raised project is
            // not handed to anyone through recovery.
            .where('p.tier', '=', 'free')
            .where('p.rate_limit_per_minute', 'is', null)
            .where('p.daily_limit', 'is', null)
            .where('p.monthly_limit', 'is', null)
            .where('p.max_page_size', 'is', null)
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('destinations as d').select('d.id').whereRef('d.project_id', '=', 'p.id'))),
            )
            .forUpdate()
            .executeTakeFirst();
          if (!project) return undefined;
          const keys = await trx
            .selectFrom('api_keys')
            .select(['id', 'key_prefix', 'active'])
            .where('project_id', '=', project.id)
            .execute();
          if (keys.length !== 1 || !keys[0].active) return undefined; // rotated: it was used
          await trx
            .updateTable('api_keys')
            .set({ active: false, deactivated_at: sql`now()` })
            .where('id', '=', keys[0].id)
            .execute();
          await trx
            .insertInto('api_keys')
            .values({ project_id: project.id, key_hash: p.keyHash, key_prefix: p.keyPrefix, rotated_from: null })
            .execute();
          return {
            projectId: project.id,
            deactivated: keys[0].key_prefix,
            email: project.email,
            projectName: project.name,
          };
        });
      } catch (err) {
        if (isUniqueViolation(err, 'api_keys_key_prefix_key')) throw new KeyPrefixCollisionError();
        throw err;
      }
    },

    /** Every key of every project, newest first, for `ncd keys list` (no hashes). */
    async listKeys(opts: { project?: string; includeInactive?: boolean } = {}) {
      let q = db
        .selectFrom('api_keys as k')
        .innerJoin('projects as p', 'p.id', 'k.project_id')
        .innerJoin('project_usage as u', 'u.project_id', 'p.id')
        .select([
          'k.key_prefix as keyPrefix',
          'p.name as projectName',
          'p.tier as tier',
          'k.active as active',
          'k.created_at as createdAt',
          'k.deactivated_at as deactivatedAt',
          'u.total as requests',
        ])
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id', 'desc');
      if (!opts.includeInactive) q = q.where('k.active', '=', true);
      if (opts.project) q = q.where('p.name_key', '=', opts.project);
      return (await q.execute()).map((r) => ({ ...r, requests: Number(r.requests) }));
    },

    /** Deactivates one key by its prefix; false when there is no active key with it. */
    async deactivateByPrefix(keyPrefix: string): Promise<boolean> {
      const r = await db
        .updateTable('api_keys')
        .set({ active: false, deactivated_at: sql`now()` })
        .where('key_prefix', '=', keyPrefix)
        .where('active', '=', true)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Deactivates the presented key and creates its replacement for the same project (same
     * tier, limits and usage). Returns undefined when the key is no longer active.
     */
    async rotate(oldKeyId: number, newHash: string, newPrefix: string): Promise<{ rotatedFrom: string } | undefined> {
      try {
        return await db.transaction().execute(async (trx) => {
          const old = await trx
            .updateTable('api_keys')
            .set({ active: false, deactivated_at: sql`now()` })
            .where('id', '=', oldKeyId)
            .where('active', '=', true)
            .returning(['project_id', 'key_prefix'])
            .executeTakeFirst();
          if (!old) return undefined;
          await trx
            .insertInto('api_keys')
            .values({
              project_id: old.project_id,
              key_hash: newHash,
              key_prefix: newPrefix,
              rotated_from: old.key_prefix,
            })
            .execute();
          return { rotatedFrom: old.key_prefix };
        });
      } catch (err) {
        if (isUniqueViolation(err, 'api_keys_key_prefix_key')) throw new KeyPrefixCollisionError();
        throw err;
      }
    },

    async tierExists(tier: string): Promise<boolean> {
      return (await db.selectFrom('tiers').select('name').where('name', '=', tier).executeTakeFirst()) !== undefined;
    },

    async setTier(projectId: number, tier: string): Promise<void> {
      await db.updateTable('projects').set({ tier }).where('id', '=', projectId).execute();
    },

    /** `undefined` leaves a value as it is; `null` returns it to the tier default. */
    async setLimits(
      projectId: number,
      limits: {
        rateLimitPerMinute?: number | null;
        dailyLimit?: number | null;
        monthlyLimit?: number | null;
        maxPageSize?: number | null;
      },
    ): Promise<void> {
      const set: Record<string, number | null> = {};
      if (limits.rateLimitPerMinute !== undefined) set.rate_limit_per_minute = limits.rateLimitPerMinute;
      if (limits.dailyLimit !== undefined) set.daily_limit = limits.dailyLimit;
      if (limits.monthlyLimit !== undefined) set.monthly_limit = limits.monthlyLimit;
      if (limits.maxPageSize !== undefined) set.max_page_size = limits.maxPageSize;
      if (Object.keys(set).length === 0) return;
      await db.updateTable('projects').set(set).where('id', '=', projectId).execute();
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
