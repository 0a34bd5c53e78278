// Requests for a higher tier, submitted through the public access-request form.
import type { Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

export function createAccessRequestRepository(db: Kysely<Database>) {
  return {
    async create(r: {
      projectName: string;
      email: string;
      organisation: string | null;
      requestedTier: string;
      message: string | null;
    }) {
      return db
        .insertInto('access_requests')
        .values({
          project_name: r.projectName,
          email: r.email,
          organisation: r.organisation,
          requested_tier: r.requestedTier,
          message: r.message,
        })
        .returning(['id', 'status', 'created_at'])
        .executeTakeFirstOrThrow();
    },
  };
}
