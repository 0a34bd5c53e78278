// Push destinations of a project. Every query is scoped by project id: one project never
// reads, changes or learns about another's destinations. The config arrives and leaves here
// already sealed (push/config-crypto.ts); this layer never sees it in clear.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DestinationsTable } from './engine/schema.ts';

export type DestinationRow = Selectable<DestinationsTable>;

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
      type: 'webhook';
      isActive: boolean;
      config: SealedConfig;
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
      patch: { type?: 'webhook'; isActive?: boolean; config?: SealedConfig; now: Date },
    ): Promise<DestinationRow | undefined> {
      return db
        .updateTable('destinations')
        .set({
          ...(patch.type !== undefined ? { type: patch.type } : {}),
          ...(patch.isActive !== undefined ? { is_active: patch.isActive } : {}),
          ...(patch.config ? sealedColumns(patch.config) : {}),
          updated_at: patch.now,
        })
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .returningAll()
        .executeTakeFirst();
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
