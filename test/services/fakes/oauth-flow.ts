// An MCP client's side of the sign-in against the OAuth services on fakes: a registered public
// client with one loopback redirect URI, a user's API key, a PKCE pair, and the authorization
// request parameters (each test overrides what it is about).
import { createHash, randomBytes } from 'node:crypto';
import { accessServicesWithFakes, BASE } from './access-services.ts';

export const REDIRECT = 'http://127.0.0.1:33418/callback';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function oauthWithFakes() {
  const s = accessServicesWithFakes();
  const client = await s.oauth.registerClient('192.0.2.10', { client_name: 'Agent', redirect_uris: [REDIRECT] });
  const key = await s.keys.register({ projectName: 'Acme', email: 'ops@acme.example' });
  const { verifier, challenge } = pkce();
  const params = (extra: Record<string, unknown> = {}) => ({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  /** A code the user granted with the key, for the request `params(extra)` describes. */
  async function code(extra: Record<string, unknown> = {}): Promise<string> {
    const req = await s.oauthAuthorize.check(params(extra), BASE);
    return new URL(await s.oauthAuthorize.approveWithKey(req, key.raw, '203.0.113.9', BASE)).searchParams.get('code')!;
  }
  /** The token request that redeems `c`. */
  const exchange = (c: string, extra: Record<string, unknown> = {}) => ({
    grant_type: 'authorization_code',
    code: c,
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    ...extra,
  });
  return { ...s, client, key, verifier, params, code, exchange };
}
