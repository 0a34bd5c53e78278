// Push destinations of a project. Every query is scoped by project id: one project never
// reads, changes or learns about another's destinations. The config arrives and leaves here
// already sealed (push/config-crypto.ts); this layer never sees it in clear.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DestinationsTable } from './engine/schema.ts';

export type DestinationRow = Selectable<DestinationsTable>;
export type DestinationType = 'webhook' | 'hubspot' | 'attio';

interface SealedConfig {
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export class DestinationNameTakenError extends Error {
  constructor() {
    super('a destination with this name already exists');
  }
}

const isNameTaken = (err: unknown) =>
  (err as { code?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === 'destinations_project_name';

const sealedColumns = (c: SealedConfig) => ({
  config_key_id: c.keyId,
  config_iv: c.iv,
  config_tag: c.tag,
  config_ciphertext: c.ciphertext,
});

export function sealedOf(row: DestinationRow): SealedConfig {
  return { keyId: row.config_key_id, iv: row.config_iv, tag: row.config_tag, ciphertext: row.config_ciphertext };
}

export function createDestinationRepository(db: Kysely<Database>) {
  return {
    /** Throws DestinationNameTakenError when the project already has that name. */
    async insert(d: {
      id: string;
      projectId: number;
      name: string;
      type: DestinationType;
      isActive: boolean;
      config: SealedConfig;
      /** The CRM account the destination writes to (HubSpot portal id), kept in clear to route webhooks. */
      externalAccount?: string | null;
      now: Date;
    }): Promise<DestinationRow> {
      try {
        return await db
          .insertInto('destinations')
          .values({
            id: d.id,
            project_id: d.projectId,
            name: d.name,
            type: d.type,
            is_active: d.isActive,
            external_account: d.externalAccount ?? null,
            ...sealedColumns(d.config),
            created_at: d.now,
            updated_at: d.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (err) {
        if (isNameTaken(err)) throw new DestinationNameTakenError();
        throw err;
      }
    },

    async list(projectId: number): Promise<DestinationRow[]> {
      // COLLATE "C": byte order, identical on both engines whatever the database locale.
      return db
        .selectFrom('destinations')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy(sql`name COLLATE "C"`)
        .execute();
    },

    async find(projectId: number, name: string): Promise<DestinationRow | undefined> {
      return db
        .selectFrom('destinations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /** Only the given fields change; undefined when the project has no such destination. */
    async update(
      projectId: number,
      name: string,
      patch: {
        type?: DestinationType;
        isActive?: boolean;
        config?: SealedConfig;
        externalAccount?: string | null;
        now: Date;
      },
    ): Promise<DestinationRow | undefined> {
      return db
        .updateTable('destinations')
        .set({
          ...(patch.type !== undefined ? { type: patch.type } : {}),
          ...(patch.isActive !== undefined ? { is_active: patch.isActive } : {}),
          ...(patch.config ? sealedColumns(patch.config) : {}),
          ...(patch.externalAccount !== undefined ? { external_account: patch.externalAccount } : {}),
          updated_at: patch.now,
        })
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .returningAll()
        .executeTakeFirst();
    },

    async byId(id: string): Promise<DestinationRow | undefined> {
      return db.selectFrom('destinations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Active destinations of a type writing to one CRM account (a HubSpot portal), in any project. */
    async byExternalAccount(type: DestinationType, account: string): Promise<DestinationRow[]> {
      return db
        .selectFrom('destinations')
        .selectAll()
        .where('type', '=', type)
        .where('external_account', '=', account)
        .where('is_active', '=', true)
        .orderBy('created_at')
        .execute();
    },

    /**
     * Replaces a sealed config (refreshed OAuth tokens) only while it is still the one `keyIdIv`
     * names, so two processes refreshing at once cannot overwrite the newer tokens with older ones.
     */
    async replaceConfig(id: string, expectedIv: string, config: SealedConfig, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('destinations')
        .set({ ...sealedColumns(config), updated_at: now })
        .where('id', '=', id)
        .where('config_iv', '=', expectedIv)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** True when a row was deleted. */
    async remove(projectId: number, name: string): Promise<boolean> {
      const r = await db
        .deleteFrom('destinations')
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type DestinationRepository = ReturnType<typeof createDestinationRepository>;
