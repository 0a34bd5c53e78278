// Pure OAuth 2.1 rules of the MCP sign-in: the shapes of our codes and tokens, which
// redirect URIs a client may register (RFC 8252 loopback on any port, or https), how a requested
// redirect URI matches a registered one, and the PKCE S256 check (RFC 7636).
import { createHash, createHmac, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // ~256 bits

/** Kinds of secret the authorization server hands out, each with its own recognisable prefix. */
const OAUTH_PREFIX = { access: 'ncd_at_', refresh: 'ncd_rt_', code: 'ncd_ac_' } as const;
type OAuthSecretKind = keyof typeof OAUTH_PREFIX;
const SHAPE = /^ncd_(at|rt|ac)_[0-9A-Za-z]{43}$/;

/** Access tokens live one hour, refresh tokens 30 days (rotated on every use), codes 10 minutes. */
export const ACCESS_TOKEN_TTL_SEC = 3600;
export const REFRESH_TOKEN_TTL_SEC = 30 * 86_400;
export const CODE_TTL_SEC = 600;

export function generateOAuthSecret(kind: OAuthSecretKind): string {
  const bytes = randomBytes(BODY_LENGTH);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % 62];
  return OAUTH_PREFIX[kind] + body;
}

/** The kind of a well-shaped code or token, else undefined (no lookup needed to refuse it). */
export function oauthSecretKind(raw: string): OAuthSecretKind | undefined {
  const m = SHAPE.exec(raw);
  if (!m) return undefined;
  return m[1] === 'at' ? 'access' : m[1] === 'rt' ? 'refresh' : 'code';
}

/** The stored form of a code or token: HMAC-SHA256 with a pepper derived from SECRET_KEY. */
export function hashOAuthSecret(pepper: Buffer, raw: string): string {
  return createHmac('sha256', pepper).update(raw).digest('hex');
}

/** A public client id (not a secret). */
export function generateClientId(): string {
  return 'ncd_client_' + randomBytes(16).toString('hex');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * Why a redirect URI may not be registered, or undefined when it may: https anywhere, or plain
 * http to a loopback address (RFC 8252 §7.3); no fragment, no credentials.
 */
export function redirectUriProblem(uri: string): string | undefined {
  const u = parse(uri);
  if (!u) return 'is not an absolute URL';
  if (u.hash || uri.includes('#')) return 'must not have a fragment';
  if (u.username || u.password) return 'must not carry credentials';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return undefined;
  return 'must be https, or http to a loopback address (127.0.0.1, [::1], localhost)';
}

/**
 * Whether a redirect URI of an authorization request matches a registered one: exactly, except
 * that a loopback URI may use any port (RFC 8252 §7.3: native apps pick a free port per run).
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = parse(registered);
  const b = parse(requested);
  if (!a || !b || a.protocol !== 'http:' || b.protocol !== 'http:') return false;
  if (!LOOPBACK_HOSTS.has(a.hostname) || a.hostname !== b.hostname) return false;
  const strip = (u: URL) => {
    const c = new URL(u.href);
    c.port = '';
    return c.href;
  };
  return strip(a) === strip(b);
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)) === challenge, verifier 43–128 unreserved chars. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

/** A code challenge as S256 produces it: 43 base64url characters. */
export const isS256Challenge = (c: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(c);

/**
 * The scopes a sign-in may ask for, and what each allows. A token acts only within its scopes;
 * a request that names none gets them all (what the key itself may do).
 */
export const OAUTH_SCOPES = {
  'read:companies':
    'Read company data: lookups, searches, financials, roles, owners, registers, screening, events and your usage',
  'write:monitoring': 'Change your project: create, change and delete watchlists and destinations, and push records',
} as const;
export type OAuthScope = keyof typeof OAUTH_SCOPES;
export const ALL_SCOPES = Object.keys(OAUTH_SCOPES) as OAuthScope[];

/**
 * The scopes a space-separated scope string grants (RFC 6749 §3.3). Values this server does not
 * know are ignored (§3.3 lets the server grant less than asked); asking for none that it knows
 * is asking for none in particular, which grants them all, as a request without a scope does.
 */
export function parseScope(scope: string | null | undefined): { scopes: OAuthScope[]; ignored: string[] } {
  const asked = [...new Set((scope ?? '').trim().split(/ +/).filter(Boolean))];
  const known = asked.filter((s): s is OAuthScope => Object.hasOwn(OAUTH_SCOPES, s));
  return {
    scopes: known.length ? known : [...ALL_SCOPES],
    ignored: asked.filter((s) => !known.includes(s as OAuthScope)),
  };
}

/** The scope a tool needs: reading needs read:companies; anything that changes state write:monitoring. */
export const scopeOfTool = (readOnly: boolean | undefined): OAuthScope =>
  readOnly ? 'read:companies' : 'write:monitoring';
