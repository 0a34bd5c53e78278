// The handle every repository takes: the database, or a transaction opened on it. A leaf file, so
// repositories and event producers can share it without importing each other.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;
