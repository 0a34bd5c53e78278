// OAuth 2.1 authorization server of the MCP endpoint: metadata (RFC 8414, RFC 9728),
// dynamic client registration (RFC 7591), the token endpoint (authorization code with PKCE S256,
// rotating refresh tokens), revocation (RFC 7009) and the check of an access token on a request.
// The consent step (authorize) lives in oauth-authorize.ts. A grant acts with one API key: its
// access token authenticates as that key (same tier, limits, usage); rotating the key ends it.
import {
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  OAuthError,
  TooManyRequestsError,
  UnsupportedGrantTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import {
  OAuthClientMetadataSchema,
  type OAuthClientInformationFull,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { signupNetworkOf } from '../../domain/client-network.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  ACCESS_TOKEN_TTL_SEC,
  ALL_SCOPES,
  generateClientId,
  generateOAuthSecret,
  hashOAuthSecret,
  oauthSecretKind,
  parseScope,
  pkceMatches,
  REFRESH_TOKEN_TTL_SEC,
  redirectUriProblem,
} from '../../domain/oauth.ts';
import { keyShaped } from '../../domain/api-key.ts';
import { deriveKey } from '../../domain/secrets.ts';
import type { ApiKeyRepository } from '../../store/access/api-keys.ts';
import type { GrantView, NewToken, OAuthRepository } from '../../store/access/oauth.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';
import { toAuthContext, type AuthContext } from './key-auth.ts';

/** Dynamic client registrations per client network per hour. */
const CLIENT_REGISTRATION_WINDOW = { name: 'oauth-register-ip', points: 20, durationSec: 3600 };

/** The MCP endpoint is the one protected resource; tokens are issued for it alone. */
const MCP_PATH = '/api/mcp';
export const mcpResource = (base: string) => `${base}${MCP_PATH}`;
export const protectedResourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource${MCP_PATH}`;

/** RFC 7591's error for a refused redirect URI (the SDK has no class of its own for it). */
class InvalidRedirectUriError extends OAuthError {
  static errorCode = 'invalid_redirect_uri';
}

export interface OAuthServiceDeps {
  oauth: OAuthRepository;
  apiKeys: ApiKeyRepository;
  rateWindows: RateWindows;
  clock: Clock;
  /** Peppers the stored code and token hashes. */
  secretKey: string;
}

interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

/** A form or JSON body: every field a string when present. */
export type OAuthParams = Record<string, unknown>;

/** A single string parameter (RFC 6749 §3.1: a parameter sent twice is an invalid request). */
export function param(p: OAuthParams, name: string, required: true): string;
export function param(p: OAuthParams, name: string, required?: false): string | undefined;
export function param(p: OAuthParams, name: string, required = false): string | undefined {
  const v = p[name];
  if (v === undefined || v === '') {
    if (required) throw new InvalidRequestError(`${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new InvalidRequestError(`${name} must be given once, as a string`);
  if (v.length > 2048) throw new InvalidRequestError(`${name} is too long`);
  if (CONTROL.test(v)) throw new InvalidRequestError(`${name} must not contain control characters`);
  return v;
}

/**
 * No OAuth parameter has a use for a control character, and PostgreSQL text cannot hold a NUL
 * (one in client_id reached the database as a 500): every parameter, body field and registered
 * string is refused with one, as an OAuth error.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const KEY_SHAPE = keyShaped();

/**
 * The path of the first string in `data` that holds a control character or a key-shaped value
 * (one of our keys or tokens: they belong in headers and token fields only, never in a stored
 * field such as a client name or a scope). Iterative, so a deeply nested body cannot overflow.
 */
export function refusedString(data: unknown): { path: string; why: string } | undefined {
  const pending: [unknown, string, number][] = [[data, '', 0]];
  while (pending.length > 0) {
    const [value, path, depth] = pending.pop()!;
    if (typeof value === 'string') {
      if (CONTROL.test(value)) return { path, why: 'must not contain control characters' };
      if (KEY_SHAPE.test(value)) return { path, why: 'must not contain an API key or token' };
    } else if (value !== null && typeof value === 'object') {
      if (depth > 32) return { path, why: 'is nested too deeply' };
      for (const [k, v] of Object.entries(value)) {
        if (CONTROL.test(k))
          return { path: `${path}.${k.replace(CONTROL, '?')}`, why: 'has a control character in a name' };
        pending.push([v, path ? `${path}.${k}` : k, depth + 1]);
      }
    }
  }
  return undefined;
}

export function createOAuthService(deps: OAuthServiceDeps) {
  const { oauth, clock } = deps;
  const pepper = deriveKey(deps.secretKey, 'oauth-token-hash');
  const hash = (raw: string) => hashOAuthSecret(pepper, raw);
  const at = (sec: number) => new Date(clock.now().getTime() + sec * 1000);

  /** A new access and refresh token pair: the raw values for the client, hashes for the store. */
  function newPair(scope: string | null) {
    const access = generateOAuthSecret('access');
    const refresh = generateOAuthSecret('refresh');
    const rows: NewToken[] = [
      { tokenHash: hash(access), kind: 'access', expiresAt: at(ACCESS_TOKEN_TTL_SEC) },
      { tokenHash: hash(refresh), kind: 'refresh', expiresAt: at(REFRESH_TOKEN_TTL_SEC) },
    ];
    const response: TokenResponse = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SEC,
      refresh_token: refresh,
      ...(scope ? { scope } : {}),
    };
    return { rows, response };
  }

  /** A resource indicator (RFC 8707), when sent, must name this server's MCP endpoint. */
  function checkResource(p: OAuthParams, base: string, bound?: string) {
    const resource = param(p, 'resource');
    if (resource === undefined) return;
    if (resource !== mcpResource(base) || (bound !== undefined && resource !== bound))
      throw new InvalidTargetError(`resource must be ${mcpResource(base)}`);
  }

  async function exchangeCode(p: OAuthParams, base: string): Promise<TokenResponse> {
    const code = param(p, 'code', true);
    const clientId = param(p, 'client_id', true);
    const redirectUri = param(p, 'redirect_uri', true);
    const verifier = param(p, 'code_verifier', true);
    const found = oauthSecretKind(code) === 'code' ? await oauth.findUsableCode(hash(code), clock.now()) : undefined;
    if (!found) {
      // A redeemed code presented again: whoever holds it may hold its tokens too (RFC 6749
      // §4.1.2), so the grant it produced is revoked.
      if (oauthSecretKind(code) === 'code') await oauth.revokeGrantOfUsedCode(hash(code), clock.now());
      throw new InvalidGrantError('The authorization code is invalid, expired or already used');
    }
    if (found.clientId !== clientId) throw new InvalidGrantError('The authorization code was issued to another client');
    if (found.redirectUri !== redirectUri)
      throw new InvalidGrantError('redirect_uri does not match the authorization request');
    if (!pkceMatches(verifier, found.codeChallenge)) throw new InvalidGrantError('PKCE verification failed');
    checkResource(p, base, found.resource);
    const pair = newPair(found.scope);
    const grant = await oauth.redeemCode(hash(code), clock.now(), pair.rows);
    if (!grant) {
      await oauth.revokeGrantOfUsedCode(hash(code), clock.now());
      throw new InvalidGrantError('The authorization code is invalid, expired or already used');
    }
    return pair.response;
  }

  async function refresh(p: OAuthParams, base: string): Promise<TokenResponse> {
    const token = param(p, 'refresh_token', true);
    const clientId = param(p, 'client_id', true);
    const grant =
      oauthSecretKind(token) === 'refresh' ? await oauth.findToken(hash(token), 'refresh', clock.now()) : undefined;
    if (!grant) {
      // Refresh-token rotation with reuse detection (OAuth 2.1 §4.3.1): a rotated token used
      // again ends the whole grant, so a stolen token and its successors stop together.
      if (oauthSecretKind(token) === 'refresh') await oauth.revokeGrantOfUsedRefresh(hash(token), clock.now());
      throw new InvalidGrantError('The refresh token is invalid, expired, used or revoked');
    }
    if (grant.clientId !== clientId) throw new InvalidGrantError('The refresh token was issued to another client');
    checkResource(p, base, grant.resource);
    const pair = newPair(grant.scope);
    if (!(await oauth.rotateRefresh(hash(token), grant.grantId, clock.now(), pair.rows))) {
      await oauth.revokeGrantOfUsedRefresh(hash(token), clock.now());
      throw new InvalidGrantError('The refresh token is invalid, expired, used or revoked');
    }
    return pair.response;
  }

  return {
    hash,

    authorizationServerMetadata(base: string): OAuthMetadata {
      return {
        issuer: base,
        authorization_endpoint: `${base}/api/oauth/authorize`,
        token_endpoint: `${base}/api/oauth/token`,
        registration_endpoint: `${base}/api/oauth/register`,
        revocation_endpoint: `${base}/api/oauth/revoke`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ALL_SCOPES,
        service_documentation: `${base}/docs`,
        authorization_response_iss_parameter_supported: true,
      } as OAuthMetadata;
    },

    protectedResourceMetadata(base: string): OAuthProtectedResourceMetadata {
      return {
        resource: mcpResource(base),
        authorization_servers: [base],
        bearer_methods_supported: ['header'],
        scopes_supported: ALL_SCOPES,
        resource_name: 'Nordic Company Data MCP server',
        resource_documentation: `${base}/docs`,
      };
    },

    /** RFC 7591 registration of a public client (no secret: PKCE protects its codes). */
    async registerClient(clientIp: string, body: unknown): Promise<OAuthClientInformationFull> {
      const w = await deps.rateWindows.consume(
        CLIENT_REGISTRATION_WINDOW.name,
        signupNetworkOf(clientIp),
        CLIENT_REGISTRATION_WINDOW.points,
        CLIENT_REGISTRATION_WINDOW.durationSec,
      );
      if (!w.allowed)
        throw Object.assign(new TooManyRequestsError('Too many client registrations from this address'), {
          retryAfter: Math.max(1, Math.ceil(w.resetMs / 1000)),
        });
      const refused = refusedString(body);
      if (refused) throw new InvalidClientMetadataError(`${refused.path || 'body'} ${refused.why}`);
      const parsed = OAuthClientMetadataSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new InvalidClientMetadataError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
      }
      const meta = parsed.data;
      if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > 10)
        throw new InvalidRedirectUriError('redirect_uris must hold 1 to 10 URIs');
      for (const [i, uri] of meta.redirect_uris.entries()) {
        const problem = redirectUriProblem(uri);
        if (problem) throw new InvalidRedirectUriError(`redirect_uris.${i} ${problem}`);
      }
      const grants = meta.grant_types ?? ['authorization_code', 'refresh_token'];
      if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
        throw new InvalidClientMetadataError('grant_types may hold authorization_code and refresh_token only');
      if ((meta.response_types ?? ['code']).some((r) => r !== 'code'))
        throw new InvalidClientMetadataError('response_types may hold code only');
      const clientName = meta.client_name?.slice(0, 200) ?? null;
      const info = {
        ...meta,
        client_name: clientName ?? undefined,
        grant_types: grants,
        response_types: ['code'],
        // Public clients only: a secret would add nothing PKCE does not already give.
        token_endpoint_auth_method: 'none',
      };
      const row = await oauth.createClient({
        clientId: generateClientId(),
        clientName,
        redirectUris: meta.redirect_uris,
        metadata: info,
      });
      return { ...info, client_id: row.clientId, client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000) };
    },

    /** The token endpoint: authorization_code or refresh_token grant. */
    async token(p: OAuthParams, base: string): Promise<TokenResponse> {
      const grantType = param(p, 'grant_type', true);
      const clientId = param(p, 'client_id', true);
      if (!(await oauth.findClient(clientId))) throw new InvalidClientError('Unknown client_id');
      if (grantType === 'authorization_code') return exchangeCode(p, base);
      if (grantType === 'refresh_token') return refresh(p, base);
      throw new UnsupportedGrantTypeError('grant_type must be authorization_code or refresh_token');
    },

    /** RFC 7009: ends the token's grant; an unknown or already revoked token is no error. */
    async revoke(p: OAuthParams): Promise<void> {
      const token = param(p, 'token', true);
      if (oauthSecretKind(token) === undefined || oauthSecretKind(token) === 'code') return;
      await oauth.revokeByTokenHash(hash(token), clock.now());
    },

    /**
     * The caller an access token acts as, checked for this resource (its audience) on every
     * call. 'wrong_audience' when the token is live but was issued for another resource.
     */
    async authenticateAccessToken(raw: string, resource: string): Promise<AuthContext | 'wrong_audience' | undefined> {
      if (oauthSecretKind(raw) !== 'access') return undefined;
      const grant: GrantView | undefined = await oauth.findToken(hash(raw), 'access', clock.now());
      if (!grant) return undefined;
      if (grant.resource !== resource) return 'wrong_audience';
      const record = await deps.apiKeys.findActiveById(grant.keyId);
      if (!record) return undefined;
      const parsed = parseScope(grant.scope);
      return { ...toAuthContext(record), scopes: parsed.scopes };
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
