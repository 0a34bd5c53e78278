// Reference tables (municipalities, counties, NACE, organisation forms, postal codes).
import { sql, type Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';
import type { ReferenceRows } from '../domain/reference-data.ts';

type RefTable = 'ref_counties' | 'ref_municipalities' | 'ref_nace' | 'ref_org_forms' | 'ref_postal_codes';

/** The reference lists as stored: the rows the in-memory view (domain/reference-data.ts) is built from. */
type ReferenceSnapshot = ReferenceRows;

export function createReferenceRepository(db: Kysely<Database>) {
  return {
    async fileHash(name: string): Promise<string | undefined> {
      return (await db.selectFrom('ref_files').select('content_hash').where('name', '=', name).executeTakeFirst())
        ?.content_hash;
    },

    /**
     * Replaces the rows that came from one reference file, in one transaction. `scope`
     * narrows the delete when several files share a table (NACE versions, org-form countries).
     */
    async replaceFile(
      table: RefTable,
      file: { name: string; hash: string; rows: Record<string, unknown>[] },
      scope?: { column: string; value: string },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        let del = trx.deleteFrom(table);
        if (scope) del = del.where(sql.ref(scope.column), '=', scope.value);
        await del.execute();
        for (let i = 0; i < file.rows.length; i += 1000) {
          await trx
            .insertInto(table)
            .values(file.rows.slice(i, i + 1000) as never)
            .execute();
        }
        await trx
          .insertInto('ref_files')
          .values({ name: file.name, content_hash: file.hash })
          .onConflict((oc) => oc.column('name').doUpdateSet({ content_hash: file.hash, loaded_at: sql`now()` }))
          .execute();
      });
    },

    async snapshot(): Promise<ReferenceSnapshot> {
      const [counties, municipalities, nace, orgForms, postalCodes] = await Promise.all([
        db.selectFrom('ref_counties').select(['code', 'name']).orderBy('code').execute(),
        db.selectFrom('ref_municipalities').select(['code', 'name', 'county_code']).orderBy('code').execute(),
        db.selectFrom('ref_nace').select(['version', 'code', 'name', 'short_name']).execute(),
        db.selectFrom('ref_org_forms').select(['country', 'code', 'description']).execute(),
        db.selectFrom('ref_postal_codes').select(['postal_code', 'place', 'municipality_code']).execute(),
      ]);
      return { counties, municipalities, nace, orgForms, postalCodes };
    },
  };
}

export type ReferenceRepository = ReturnType<typeof createReferenceRepository>;
