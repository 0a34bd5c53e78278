// OAuth clients, authorization codes, grants and tokens (0017_oauth.sql). Codes and tokens are
// stored only as keyed hashes; every read of a token joins its grant and API key, so a revoked
// grant or a rotated/deactivated key ends the token at once.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

export interface OAuthClientRow {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  createdAt: Date;
}

interface NewCode {
  codeHash: string;
  clientId: string;
  keyId: number;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string | null;
  expiresAt: Date;
}

export interface NewToken {
  tokenHash: string;
  kind: 'access' | 'refresh';
  expiresAt: Date;
}

/** What a live token or code carries: its grant (client, key, audience). */
export interface GrantView {
  grantId: number;
  clientId: string;
  keyId: number;
  resource: string;
  scope: string | null;
}

export function createOAuthRepository(db: Kysely<Database>) {
  /** Tokens of a live grant whose key is still active. */
  const liveTokens = (now: Date) =>
    db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
      .innerJoin('api_keys as k', 'k.id', 'g.key_id')
      .select(['t.kind', 'g.id as grantId', 'g.client_id as clientId', 'g.key_id as keyId', 'g.resource', 'g.scope'])
      .where('g.revoked_at', 'is', null)
      .where('k.active', '=', true)
      .where('t.expires_at', '>', now);

  return {
    async createClient(c: Omit<OAuthClientRow, 'createdAt'>): Promise<OAuthClientRow> {
      const row = await db
        .insertInto('oauth_clients')
        .values({
          client_id: c.clientId,
          client_name: c.clientName,
          redirect_uris: JSON.stringify(c.redirectUris),
          metadata: JSON.stringify(c.metadata),
        })
        .returning('created_at')
        .executeTakeFirstOrThrow();
      return { ...c, createdAt: row.created_at };
    },

    async findClient(clientId: string): Promise<OAuthClientRow | undefined> {
      const r = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
      if (!r) return undefined;
      return {
        clientId: r.client_id,
        clientName: r.client_name,
        redirectUris: r.redirect_uris,
        metadata: r.metadata,
        createdAt: r.created_at,
      };
    },

    async createCode(c: NewCode): Promise<void> {
      await db
        .insertInto('oauth_codes')
        .values({
          code_hash: c.codeHash,
          client_id: c.clientId,
          key_id: c.keyId,
          redirect_uri: c.redirectUri,
          code_challenge: c.codeChallenge,
          resource: c.resource,
          scope: c.scope,
          expires_at: c.expiresAt,
        })
        .execute();
    },

    /** An unused, unexpired code whose key is still active (read only: checks come first). */
    async findUsableCode(codeHash: string, now: Date) {
      return db
        .selectFrom('oauth_codes as c')
        .innerJoin('api_keys as k', 'k.id', 'c.key_id')
        .select([
          'c.client_id as clientId',
          'c.key_id as keyId',
          'c.redirect_uri as redirectUri',
          'c.code_challenge as codeChallenge',
          'c.resource',
          'c.scope',
        ])
        .where('c.code_hash', '=', codeHash)
        .where('c.used_at', 'is', null)
        .where('c.expires_at', '>', now)
        .where('k.active', '=', true)
        .executeTakeFirst();
    },

    /**
     * Redeems a code: marks it used and creates its grant and first tokens in one transaction.
     * Undefined when the code was redeemed concurrently (only one redemption wins).
     */
    async redeemCode(codeHash: string, now: Date, tokens: NewToken[]): Promise<GrantView | undefined> {
      return db.transaction().execute(async (trx) => {
        const code = await trx
          .updateTable('oauth_codes')
          .set({ used_at: now })
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .returning(['client_id', 'key_id', 'resource', 'scope'])
          .executeTakeFirst();
        if (!code) return undefined;
        const grant = await trx
          .insertInto('oauth_grants')
          .values({
            client_id: code.client_id,
            key_id: code.key_id,
            resource: code.resource,
            scope: code.scope,
            code_hash: codeHash,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('oauth_tokens')
          .values(
            tokens.map((t) => ({ token_hash: t.tokenHash, grant_id: grant.id, kind: t.kind, expires_at: t.expiresAt })),
          )
          .execute();
        return {
          grantId: grant.id,
          clientId: code.client_id,
          keyId: code.key_id,
          resource: code.resource,
          scope: code.scope,
        };
      });
    },

    /** A live token of this kind (unexpired, unused for refresh, grant and key live). */
    async findToken(tokenHash: string, kind: 'access' | 'refresh', now: Date): Promise<GrantView | undefined> {
      let q = liveTokens(now).where('t.token_hash', '=', tokenHash).where('t.kind', '=', kind);
      if (kind === 'refresh') q = q.where('t.used_at', 'is', null);
      const r = await q.executeTakeFirst();
      return r
        ? { grantId: r.grantId, clientId: r.clientId, keyId: r.keyId, resource: r.resource, scope: r.scope }
        : undefined;
    },

    /**
     * Refresh-token rotation: marks the presented refresh token used and adds the new pair to its
     * grant, in one transaction. False when it was used concurrently.
     */
    async rotateRefresh(oldHash: string, grantId: number, now: Date, tokens: NewToken[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('oauth_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', oldHash)
          .where('kind', '=', 'refresh')
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return false;
        await trx
          .insertInto('oauth_tokens')
          .values(
            tokens.map((t) => ({ token_hash: t.tokenHash, grant_id: grantId, kind: t.kind, expires_at: t.expiresAt })),
          )
          .execute();
        return true;
      });
    },

    /**
     * A code presented again after it was redeemed: revokes the grant it produced (its access and
     * refresh tokens end with it). True when a live grant was revoked.
     */
    async revokeGrantOfUsedCode(codeHash: string, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('revoked_at', 'is', null)
        .where('code_hash', '=', codeHash)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('oauth_codes')
              .select('code_hash')
              .where('code_hash', '=', codeHash)
              .where('used_at', 'is not', null),
          ),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * A refresh token presented again after it was rotated (reuse: it was stolen, or the client
     * is confused): revokes its whole grant. True when a live grant was revoked.
     */
    async revokeGrantOfUsedRefresh(tokenHash: string, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('revoked_at', 'is', null)
        .where('id', '=', (eb) =>
          eb
            .selectFrom('oauth_tokens')
            .select('grant_id')
            .where('token_hash', '=', tokenHash)
            .where('kind', '=', 'refresh')
            .where('used_at', 'is not', null),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * One bounded batch of the purge: up to `batch` expired codes, expired tokens, and grants
     * left without tokens (expired or revoked: nothing can use them any more). Each delete reads
     * by its expiry index and is its own short statement.
     */
    async purgeExpired(now: Date, batch: number): Promise<{ codes: number; tokens: number; grants: number }> {
      const codes = await sql`DELETE FROM oauth_codes WHERE code_hash IN (
          SELECT code_hash FROM oauth_codes WHERE expires_at <= ${now} LIMIT ${batch}::integer)`.execute(db);
      const tokens = await sql`DELETE FROM oauth_tokens WHERE token_hash IN (
          SELECT token_hash FROM oauth_tokens WHERE expires_at <= ${now} LIMIT ${batch}::integer)`.execute(db);
      const grants = await sql`DELETE FROM oauth_grants WHERE id IN (
          SELECT g.id FROM oauth_grants g
          WHERE NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.grant_id = g.id)
            AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.code_hash = g.code_hash)
          LIMIT ${batch}::integer)`.execute(db);
      return {
        codes: Number(codes.numAffectedRows ?? 0),
        tokens: Number(tokens.numAffectedRows ?? 0),
        grants: Number(grants.numAffectedRows ?? 0),
      };
    },

    /** Revokes the grant of a token (RFC 7009: its access and refresh tokens end together). */
    async revokeByTokenHash(tokenHash: string, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('revoked_at', 'is', null)
        .where('id', '=', (eb) => eb.selectFrom('oauth_tokens').select('grant_id').where('token_hash', '=', tokenHash))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}

export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
