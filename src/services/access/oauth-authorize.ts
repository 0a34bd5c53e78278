// The authorization endpoint's logic: checks an authorization request (RFC 6749
// §4.1.1 with PKCE S256 required and a resource indicator), and turns the user's consent into an
// authorization code for the redirect URI. The user consents with an existing API key, or by
// registering a new free project exactly as POST /api/keys/register does (same validation,
// honeypot, per-IP limit and setup e-mail).
import {
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  type OAuthError,
  UnsupportedResponseTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { Value } from 'typebox/value';
import type { Static } from 'typebox';
import { KeyRegisterBody } from '../../contract/keys.ts';
import { isWellFormedKey } from '../../domain/api-key.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  CODE_TTL_SEC,
  generateOAuthSecret,
  isS256Challenge,
  OAUTH_SCOPES,
  parseScope,
  redirectUriMatches,
} from '../../domain/oauth.ts';
import { type ErrorDetail } from '../../errors.ts';
import type { OAuthClientRow, OAuthRepository } from '../../store/access/oauth.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';
import { signupNetworkOf } from '../../domain/client-network.ts';
import type { AuthContext } from './key-auth.ts';
import type { KeyAuthService } from './key-auth.ts';
import type { KeyManagementService } from './key-management.ts';
import { mcpResource, param, refusedString, type OAuthParams, type OAuthService } from './oauth.ts';

/** A request the server cannot send back to the client (unknown client, unregistered redirect). */
export class AuthorizeRejection extends Error {}

/** A failure reported to the client at its redirect URI (RFC 6749 §4.1.2.1). */
export class AuthorizeRedirect extends Error {
  constructor(readonly location: string) {
    super('authorization request refused');
  }
}

/** A consent form the user must correct (shown again with the reason). */
export class ConsentProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface AuthorizeRequest {
  client: OAuthClientRow;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  resource: string;
  scope?: string;
  /** What the sign-in will allow, each scope with its meaning (shown on the consent page). */
  scopes: { scope: string; allows: string }[];
}

/** The hidden fields the consent form sends back with the user's choice. */
export const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
] as const;

type RegistrationInput = Static<typeof KeyRegisterBody>;

export interface OAuthAuthorizeDeps {
  oauth: OAuthRepository;
  tokens: OAuthService;
  keyAuth: KeyAuthService;
  keys: KeyManagementService;
  rateWindows: RateWindows;
  clock: Clock;
}

/**
 * Authorization codes minted per API key and per client network: a consent form is no way
 * around the key's limits. Each code also counts as one request against the key's quotas.
 */
export const CODE_WINDOWS = {
  key: { name: 'oauth-code-key', points: 20, durationSec: 600 },
  network: { name: 'oauth-code-ip', points: 60, durationSec: 600 },
} as const;

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.href;
}

export function createOAuthAuthorizeService(deps: OAuthAuthorizeDeps) {
  const { oauth, clock } = deps;

  /** Counts a code against its key's and its network's windows and the key's quotas, or refuses it. */
  async function guardCode(caller: AuthContext, clientIp: string) {
    for (const [w, subject] of [
      [CODE_WINDOWS.network, signupNetworkOf(clientIp)],
      [CODE_WINDOWS.key, String(caller.keyId)],
    ] as const) {
      const r = await deps.rateWindows.consume(w.name, subject, w.points, w.durationSec);
      if (!r.allowed) {
        const retryAfter = Math.max(1, Math.ceil(r.resetMs / 1000));
        throw new ConsentProblem(
          429,
          `Too many sign-ins in a short time; try again in ${retryAfter} s`,
          [],
          retryAfter,
        );
      }
    }
    try {
      await deps.keyAuth.chargeQuota(caller);
    } catch (err) {
      const e = err as { status?: number; message: string; opts?: { extra?: { retryAfter?: number } } };
      if (e.status === 429) throw new ConsentProblem(429, e.message, [], e.opts?.extra?.retryAfter);
      throw err;
    }
  }

  async function issueCode(req: AuthorizeRequest, caller: AuthContext, clientIp: string, base: string) {
    await guardCode(caller, clientIp);
    const keyId = caller.keyId;
    const code = generateOAuthSecret('code');
    await oauth.createCode({
      codeHash: deps.tokens.hash(code),
      clientId: req.client.clientId,
      keyId,
      redirectUri: req.redirectUri,
      codeChallenge: req.codeChallenge,
      resource: req.resource,
      scope: req.scope ?? null,
      expiresAt: new Date(clock.now().getTime() + CODE_TTL_SEC * 1000),
    });
    return withParams(req.redirectUri, { code, state: req.state, iss: base });
  }

  return {
    /**
     * Checks an authorization request. An unknown client or a redirect URI it did not register
     * is an AuthorizeRejection (never redirected to); any other fault an AuthorizeRedirect.
     */
    async check(p: OAuthParams, base: string): Promise<AuthorizeRequest> {
      let clientId: string | undefined;
      let requested: string | undefined;
      try {
        clientId = param(p, 'client_id');
        requested = param(p, 'redirect_uri');
      } catch (err) {
        throw new AuthorizeRejection((err as Error).message);
      }
      if (!clientId) throw new AuthorizeRejection('client_id is required');
      const client = await oauth.findClient(clientId);
      if (!client) throw new AuthorizeRejection('This application is not registered here (unknown client_id)');
      if (requested === undefined && client.redirectUris.length !== 1)
        throw new AuthorizeRejection('redirect_uri is required');
      const redirectUri = requested ?? client.redirectUris[0];
      if (!client.redirectUris.some((r) => redirectUriMatches(r, redirectUri)))
        throw new AuthorizeRejection('redirect_uri is not one this application registered');

      let state: string | undefined;
      const fail = (err: OAuthError) =>
        new AuthorizeRedirect(
          withParams(redirectUri, { error: err.errorCode, error_description: err.message, state, iss: base }),
        );
      try {
        state = param(p, 'state');
      } catch (err) {
        throw fail(err as OAuthError);
      }
      try {
        if (param(p, 'response_type', true) !== 'code')
          throw new UnsupportedResponseTypeError('response_type must be code');
        const codeChallenge = param(p, 'code_challenge', true);
        if (param(p, 'code_challenge_method') !== 'S256')
          throw new InvalidRequestError('code_challenge_method must be S256 (PKCE is required)');
        if (!isS256Challenge(codeChallenge)) throw new InvalidRequestError('code_challenge is not an S256 challenge');
        const resource = param(p, 'resource') ?? mcpResource(base);
        if (resource !== mcpResource(base)) throw new InvalidTargetError(`resource must be ${mcpResource(base)}`);
        const scope = param(p, 'scope');
        // The scope is stored with the code and grant: a key-shaped value must not rest there.
        if (scope !== undefined && refusedString(scope))
          throw new InvalidScopeError('scope must not contain an API key or token');
        // What is granted (and stored with the code): the known scopes asked for, or all.
        const parsed = parseScope(scope);
        const scopes = parsed.scopes.map((x) => ({ scope: x, allows: OAUTH_SCOPES[x] }));
        return { client, redirectUri, state, codeChallenge, resource, scope: parsed.scopes.join(' '), scopes };
      } catch (err) {
        throw fail(err as OAuthError);
      }
    },

    /** The user refused: access_denied at the client's redirect URI. */
    deny(req: AuthorizeRequest, base: string): string {
      return withParams(req.redirectUri, {
        error: 'access_denied',
        error_description: 'The user did not allow access',
        state: req.state,
        iss: base,
      });
    },

    /** Consent with an existing API key: the code acts with that key. */
    async approveWithKey(req: AuthorizeRequest, rawKey: string, clientIp: string, base: string): Promise<string> {
      const key = rawKey.trim();
      const caller = isWellFormedKey(key) ? await deps.keyAuth.authenticate(key) : undefined;
      if (!caller)
        throw new ConsentProblem(400, 'This API key is not valid or no longer active', [
          { path: 'key', message: 'is not an active API key' },
        ]);
      return issueCode(req, caller, clientIp, base);
    },

    /**
     * Consent by registering a new free project: the /api/keys/register rules (schema, per-IP
     * limit) and its setup e-mail; the code acts with the new key. undefined when the honeypot
     * was filled (nothing is created, as /api/keys/register does).
     */
    async approveWithNewProject(
      req: AuthorizeRequest,
      clientIp: string,
      input: Record<string, unknown>,
      base: string,
    ): Promise<string | undefined> {
      if (typeof input.website === 'string' && input.website.trim() !== '') return undefined;
      const refused = refusedString(input);
      if (refused)
        throw new ConsentProblem(400, 'Invalid request', [{ path: `body.${refused.path}`, message: refused.why }]);
      const fields = Object.fromEntries(
        Object.entries(input).filter(([k, v]) => v !== '' && (k !== 'website' || v !== undefined)),
      );
      if (!Value.Check(KeyRegisterBody, fields)) {
        const details = [...Value.Errors(KeyRegisterBody, fields)].map((e) => ({
          path: `body${e.instancePath.replace(/\//g, '.')}`,
          message: e.message,
        }));
        throw new ConsentProblem(400, 'Invalid request', details);
      }
      const body = fields as RegistrationInput;
      try {
        await deps.keys.guardSignupRate(clientIp);
        const created = await deps.keys.register(body, base);
        const caller = (await deps.keyAuth.authenticate(created.raw))!;
        return await issueCode(req, caller, clientIp, base);
      } catch (err) {
        const e = err as {
          status?: number;
          message: string;
          opts?: { details?: ErrorDetail[]; extra?: { retryAfter?: number } };
        };
        if (typeof e.status === 'number' && e.status < 500)
          throw new ConsentProblem(e.status, e.message, e.opts?.details ?? [], e.opts?.extra?.retryAfter);
        throw err;
      }
    },
  };
}
