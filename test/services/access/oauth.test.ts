// The token endpoint and the token check on fakes: a code is redeemed once, before it expires, by
// the client it was issued to, at its redirect URI, with the matching PKCE verifier; refresh
// tokens rotate; revocation, key rotation and expiry end a token; the audience is checked.
import { describe, expect, it } from 'vitest';
import { mcpResource } from '../../../src/services/access/oauth.ts';
import { BASE } from '../fakes/access-services.ts';
import { rejection } from '../fakes/errors.ts';
import { oauthWithFakes, pkce, REDIRECT } from '../fakes/oauth-flow.ts';

const MCP = mcpResource(BASE);

/** The OAuth error code (`invalid_grant` …) a call fails with, and its description. */
async function oauthError(call: Promise<unknown>) {
  const err = (await rejection(call)) as Error & { errorCode?: string };
  return { code: err.errorCode, message: err.message };
}

describe('OAuth token: redeeming a code', () => {
  it('a valid code gives a bearer pair whose access token acts as the consenting key', async () => {
    const { oauth, code, exchange, key, keyAuth } = await oauthWithFakes();
    const tokens = await oauth.token(exchange(await code({ scope: 'read:companies mcp:read' })), BASE);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:companies' });
    expect(tokens.access_token).toMatch(/^ncd_at_/);
    expect(tokens.refresh_token).toMatch(/^ncd_rt_/);
    const caller = await oauth.authenticateAccessToken(tokens.access_token, MCP);
    expect(caller).toMatchObject({ keyId: (await keyAuth.authenticate(key.raw))!.keyId, projectName: 'Acme' });
  });

  it('a code is good once: the second redemption is invalid_grant', async () => {
    const { oauth, code, exchange } = await oauthWithFakes();
    const c = await code();
    await oauth.token(exchange(c), BASE);
    expect(await oauthError(oauth.token(exchange(c), BASE))).toEqual({
      code: 'invalid_grant',
      message: 'The authorization code is invalid, expired or already used',
    });
  });

  it('a code expires after ten minutes', async () => {
    const { oauth, code, exchange, clock } = await oauthWithFakes();
    const c = await code();
    clock.advance(600_000);
    expect((await oauthError(oauth.token(exchange(c), BASE))).code).toBe('invalid_grant');
  });

  it('a wrong verifier, another client, another redirect URI or a code of the wrong shape is invalid_grant', async () => {
    const { oauth, code, exchange } = await oauthWithFakes();
    const other = await oauth.registerClient('192.0.2.10', { redirect_uris: [REDIRECT] });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ code_verifier: pkce().verifier }, /PKCE verification failed/],
      [{ code_verifier: 'short' }, /PKCE verification failed/],
      [{ client_id: other.client_id }, /issued to another client/],
      [{ redirect_uri: 'http://127.0.0.1:9999/callback' }, /redirect_uri does not match/],
      [{ code: 'ncd_at_' + 'a'.repeat(43) }, /invalid, expired or already used/],
    ];
    for (const [extra, message] of cases) {
      const c = await code();
      const err = await oauthError(oauth.token(exchange(c, extra), BASE));
      expect(err.code, JSON.stringify(extra)).toBe('invalid_grant');
      expect(err.message).toMatch(message);
    }
  });

  it('a code granted by a key deactivated since is invalid_grant', async () => {
    const { oauth, code, exchange, keys, key } = await oauthWithFakes();
    const c = await code();
    await keys.deactivate(key.keyPrefix);
    expect((await oauthError(oauth.token(exchange(c), BASE))).code).toBe('invalid_grant');
  });

  it('an unknown client is invalid_client, another grant type unsupported_grant_type, another resource invalid_target', async () => {
    const { oauth, code, exchange } = await oauthWithFakes();
    const c = await code();
    expect((await oauthError(oauth.token(exchange(c, { client_id: 'ncd_client_x' }), BASE))).code).toBe(
      'invalid_client',
    );
    expect((await oauthError(oauth.token(exchange(c, { grant_type: 'password' }), BASE))).code).toBe(
      'unsupported_grant_type',
    );
    expect((await oauthError(oauth.token(exchange(c, { resource: 'https://x.example/api/mcp' }), BASE))).code).toBe(
      'invalid_target',
    );
    // None of these used the code up.
    expect((await oauth.token(exchange(c), BASE)).access_token).toMatch(/^ncd_at_/);
  });
});

describe('OAuth token: the life of a grant', () => {
  it('a refresh token rotates: the new pair works, the used refresh token does not', async () => {
    const { oauth, code, exchange, client } = await oauthWithFakes();
    const first = await oauth.token(exchange(await code()), BASE);
    const refresh = { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: client.client_id };
    const second = await oauth.token(refresh, BASE);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await oauth.authenticateAccessToken(second.access_token, MCP)).toBeDefined();
    expect(await oauthError(oauth.token(refresh, BASE))).toEqual({
      code: 'invalid_grant',
      message: 'The refresh token is invalid, expired, used or revoked',
    });
  });

  it('an access token is for this MCP endpoint only, and lasts an hour', async () => {
    const { oauth, code, exchange, clock } = await oauthWithFakes();
    const { access_token } = await oauth.token(exchange(await code()), BASE);
    expect(await oauth.authenticateAccessToken(access_token, 'https://other.example/api/mcp')).toBe('wrong_audience');
    expect(await oauth.authenticateAccessToken('ncd_rt_' + 'a'.repeat(43), MCP)).toBeUndefined();
    clock.advance(3600_000);
    expect(await oauth.authenticateAccessToken(access_token, MCP)).toBeUndefined();
  });

  it('revoking either token ends the whole grant; an unknown token is no error', async () => {
    const { oauth, code, exchange, client } = await oauthWithFakes();
    const t = await oauth.token(exchange(await code()), BASE);
    await oauth.revoke({ token: t.refresh_token });
    expect(await oauth.authenticateAccessToken(t.access_token, MCP)).toBeUndefined();
    const refresh = { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id };
    expect((await oauthError(oauth.token(refresh, BASE))).code).toBe('invalid_grant');
    await oauth.revoke({ token: 'ncd_at_' + 'b'.repeat(43) });
    await oauth.revoke({ token: 'nonsense' });
  });

  it('rotating the key ends the tokens granted with it', async () => {
    const { oauth, code, exchange, keys, keyAuth, key } = await oauthWithFakes();
    const t = await oauth.token(exchange(await code()), BASE);
    await keys.rotate((await keyAuth.authenticate(key.raw))!);
    expect(await oauth.authenticateAccessToken(t.access_token, MCP)).toBeUndefined();
  });
});

describe('OAuth: client registration', () => {
  it('registers public clients with https or loopback redirect URIs only', async () => {
    const { oauth } = await oauthWithFakes();
    const ok = await oauth.registerClient('192.0.2.20', { redirect_uris: ['https://app.example/cb'] });
    expect(ok).toMatchObject({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    for (const [body, code] of [
      [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#x'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ client_name: 'no uris' }, 'invalid_client_metadata'],
    ] as const) {
      expect((await oauthError(oauth.registerClient('192.0.2.20', body))).code, JSON.stringify(body)).toBe(code);
    }
  });

  it('twenty registrations per network per hour; then too_many_requests with a retry time', async () => {
    const { oauth } = await oauthWithFakes(); // the setup registered one from 192.0.2.10
    for (let i = 0; i < 19; i++) await oauth.registerClient('192.0.2.10', { redirect_uris: [REDIRECT] });
    const err = (await rejection(oauth.registerClient('192.0.2.10', { redirect_uris: [REDIRECT] }))) as Error & {
      errorCode: string;
      retryAfter: number;
    };
    expect(err.errorCode).toBe('too_many_requests');
    expect(err.retryAfter).toBe(3600);
    await oauth.registerClient('192.0.2.11', { redirect_uris: [REDIRECT] });
  });
});
