// The change feed's page read: one statement per page (keyset page, accounts, roles), with the
// bulk of each record already written as JSON text by the database (record-json.ts).
import { sql, type Kysely } from 'kysely';
import type { RelationOptions } from './company-reads.ts';
import { SORTS } from './company-search.ts';
import type { KeysetPosition } from './engine/keyset.ts';
import { recordJsonPage, type RecordJsonRow } from './record-json.ts';
import type { Database } from './engine/schema.ts';

export function createChangeFeedRepository(db: Kysely<Database>) {
  return {
    /**
     * The change feed: every company (deleted ones too) with updated_at >= since, oldest first,
     * with the relations asked for, in one statement per page.
     */
    page(
      since: Date,
      limit: number,
      after: KeysetPosition | undefined,
      relations: RelationOptions,
    ): Promise<{ rows: RecordJsonRow[]; positions: KeysetPosition[] }> {
      return recordJsonPage(db, {
        where: [sql`c.updated_at >= ${since.toISOString()}::timestamptz`],
        sort: SORTS.updatedAt,
        order: 'asc',
        limit,
        after,
        relations,
        prepared: true,
      });
    },
  };
}

export type ChangeFeedRepository = ReturnType<typeof createChangeFeedRepository>;
