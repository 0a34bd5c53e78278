// OAuth clients, codes, grants and tokens in memory, with the store's rules: a code is usable
// once, before it expires and while its key is active; a token's grant must be live, its key
// active and the token unexpired (a refresh token also unused); revoking a token ends its grant.
import type { GrantView, NewToken, OAuthClientRow, OAuthRepository } from '../../../src/store/access/oauth.ts';
import type { FakeApiKeys } from './access-store.ts';

type NewCode = Parameters<OAuthRepository['createCode']>[0];

interface Code extends NewCode {
  usedAt: Date | null;
}

interface Token extends NewToken {
  grantId: number;
  usedAt: Date | null;
}

interface Grant {
  id: number;
  clientId: string;
  keyId: number;
  resource: string;
  scope: string | null;
  revokedAt: Date | null;
  codeHash: string;
}

export class FakeOAuthStore implements OAuthRepository {
  readonly clients = new Map<string, OAuthClientRow>();
  readonly codes = new Map<string, Code>();
  readonly grants: Grant[] = [];
  readonly tokens = new Map<string, Token>();

  constructor(private readonly apiKeys: Pick<FakeApiKeys, 'findActiveById'>) {}

  private async keyActive(keyId: number) {
    return (await this.apiKeys.findActiveById(keyId)) !== undefined;
  }

  private view(g: Grant): GrantView {
    return { grantId: g.id, clientId: g.clientId, keyId: g.keyId, resource: g.resource, scope: g.scope };
  }

  private addTokens(grantId: number, tokens: NewToken[]) {
    for (const t of tokens) this.tokens.set(t.tokenHash, { ...t, grantId, usedAt: null });
  }

  async createClient(c: Omit<OAuthClientRow, 'createdAt'>): Promise<OAuthClientRow> {
    const row = { ...c, createdAt: new Date('2026-03-01T00:00:00Z') };
    this.clients.set(c.clientId, row);
    return row;
  }

  async findClient(clientId: string) {
    return this.clients.get(clientId);
  }

  async createCode(c: NewCode): Promise<void> {
    this.codes.set(c.codeHash, { ...c, usedAt: null });
  }

  async findUsableCode(codeHash: string, now: Date) {
    const c = this.codes.get(codeHash);
    if (!c || c.usedAt || c.expiresAt <= now || !(await this.keyActive(c.keyId))) return undefined;
    const { clientId, keyId, redirectUri, codeChallenge, resource, scope } = c;
    return { clientId, keyId, redirectUri, codeChallenge, resource, scope };
  }

  async redeemCode(codeHash: string, now: Date, tokens: NewToken[]): Promise<GrantView | undefined> {
    const c = this.codes.get(codeHash);
    if (!c || c.usedAt) return undefined;
    c.usedAt = now;
    const grant: Grant = {
      id: this.grants.length + 1,
      clientId: c.clientId,
      keyId: c.keyId,
      resource: c.resource,
      scope: c.scope,
      revokedAt: null,
      codeHash,
    };
    this.grants.push(grant);
    this.addTokens(grant.id, tokens);
    return this.view(grant);
  }

  async findToken(tokenHash: string, kind: 'access' | 'refresh', now: Date): Promise<GrantView | undefined> {
    const t = this.tokens.get(tokenHash);
    if (!t || t.kind !== kind || t.expiresAt <= now || (kind === 'refresh' && t.usedAt)) return undefined;
    const g = this.grants.find((x) => x.id === t.grantId)!;
    if (g.revokedAt || !(await this.keyActive(g.keyId))) return undefined;
    return this.view(g);
  }

  async rotateRefresh(oldHash: string, grantId: number, now: Date, tokens: NewToken[]): Promise<boolean> {
    const t = this.tokens.get(oldHash);
    if (!t || t.kind !== 'refresh' || t.usedAt) return false;
    t.usedAt = now;
    this.addTokens(grantId, tokens);
    return true;
  }

  private revoke(g: Grant | undefined, now: Date): boolean {
    if (!g || g.revokedAt) return false;
    g.revokedAt = now;
    return true;
  }

  async revokeGrantOfUsedCode(codeHash: string, now: Date): Promise<boolean> {
    if (!this.codes.get(codeHash)?.usedAt) return false;
    return this.revoke(
      this.grants.find((g) => g.codeHash === codeHash),
      now,
    );
  }

  async revokeGrantOfUsedRefresh(tokenHash: string, now: Date): Promise<boolean> {
    const t = this.tokens.get(tokenHash);
    if (!t || t.kind !== 'refresh' || !t.usedAt) return false;
    return this.revoke(
      this.grants.find((g) => g.id === t.grantId),
      now,
    );
  }

  async purgeExpired(now: Date, batch: number) {
    const take = <T>(m: Map<string, T & { expiresAt: Date }>) => {
      const gone = [...m].filter(([, v]) => v.expiresAt <= now).slice(0, batch);
      for (const [k] of gone) m.delete(k);
      return gone.length;
    };
    const codes = take(this.codes);
    const tokens = take(this.tokens);
    const live = new Set([...this.tokens.values()].map((t) => t.grantId));
    const dead = this.grants.filter((g) => !live.has(g.id) && !this.codes.has(g.codeHash)).slice(0, batch);
    for (const g of dead) this.grants.splice(this.grants.indexOf(g), 1);
    return { codes, tokens, grants: dead.length };
  }

  async revokeByTokenHash(tokenHash: string, now: Date): Promise<boolean> {
    const t = this.tokens.get(tokenHash);
    const g = t && this.grants.find((x) => x.id === t.grantId);
    if (!g || g.revokedAt) return false;
    g.revokedAt = now;
    return true;
  }
}
