// The authorization request and the consent step on fakes: which faults are refused outright
// (never redirected), which are reported at the client's redirect URI, and the two ways a user
// consents (an existing key, or a new free project under registration's rules).
import { describe, expect, it } from 'vitest';
import { AuthorizeRedirect, AuthorizeRejection, ConsentProblem } from '../../../src/services/access/oauth-authorize.ts';
import { mcpResource } from '../../../src/services/access/oauth.ts';
import { BASE } from '../fakes/access-services.ts';
import { rejection } from '../fakes/errors.ts';
import { oauthWithFakes, REDIRECT } from '../fakes/oauth-flow.ts';

const setup = oauthWithFakes;

/** The error fields an AuthorizeRedirect sends back to the client. */
async function redirected(call: Promise<unknown>) {
  const err = await rejection(call);
  expect(err).toBeInstanceOf(AuthorizeRedirect);
  const u = new URL((err as AuthorizeRedirect).location);
  expect(u.origin + u.pathname).toBe(REDIRECT);
  return Object.fromEntries(u.searchParams);
}

describe('OAuth authorize: the request check', () => {
  it('a valid request names the client, the redirect URI, the state and this server as the resource', async () => {
    const { oauthAuthorize, params, client } = await setup();
    const req = await oauthAuthorize.check(params({ scope: 'mcp' }), BASE);
    // A scope this server does not know is ignored: asking for none it knows grants them all.
    expect(req).toMatchObject({
      redirectUri: REDIRECT,
      state: 'st-1',
      resource: mcpResource(BASE),
      scope: 'read:companies write:monitoring',
    });
    expect(req.client.clientId).toBe(client.client_id);
  });

  it('an unknown client, a missing client_id or a redirect URI it did not register is refused, never redirected', async () => {
    const { oauthAuthorize, params } = await setup();
    for (const [p, message] of [
      [params({ client_id: 'ncd_client_unknown' }), /not registered here/],
      [params({ client_id: undefined }), /client_id is required/],
      [params({ redirect_uri: 'https://evil.example/cb' }), /not one this application registered/],
      [params({ redirect_uri: 'http://127.0.0.1:33418/other' }), /not one this application registered/],
      [params({ client_id: ['a', 'b'] }), /client_id must be given once/],
    ] as const) {
      const err = await rejection(oauthAuthorize.check(p, BASE));
      expect(err).toBeInstanceOf(AuthorizeRejection);
      expect(err.message).toMatch(message);
    }
  });

  it('a loopback redirect URI may use any port; with one registered URI it may be left out', async () => {
    const { oauthAuthorize, params } = await setup();
    expect(
      (await oauthAuthorize.check(params({ redirect_uri: 'http://127.0.0.1:5000/callback' }), BASE)).redirectUri,
    ).toBe('http://127.0.0.1:5000/callback');
    expect((await oauthAuthorize.check(params({ redirect_uri: undefined }), BASE)).redirectUri).toBe(REDIRECT);
  });

  it('with several registered URIs, redirect_uri is required', async () => {
    const { oauthAuthorize, oauth, params } = await setup();
    const two = await oauth.registerClient('192.0.2.10', { redirect_uris: [REDIRECT, 'https://app.example/cb'] });
    const err = await rejection(
      oauthAuthorize.check(params({ client_id: two.client_id, redirect_uri: undefined }), BASE),
    );
    expect(err).toBeInstanceOf(AuthorizeRejection);
    expect(err.message).toBe('redirect_uri is required');
  });

  it('other faults go back to the redirect URI with the OAuth error, the state and the issuer', async () => {
    const { oauthAuthorize, params } = await setup();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ response_type: 'token' }, 'unsupported_response_type', /must be code/],
      [{ code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
      [{ code_challenge_method: 'plain' }, 'invalid_request', /PKCE is required/],
      [{ code_challenge_method: undefined }, 'invalid_request', /must be S256/],
      [{ code_challenge: 'too-short' }, 'invalid_request', /not an S256 challenge/],
      [{ resource: 'https://other.example/api/mcp' }, 'invalid_target', /resource must be/],
    ];
    for (const [extra, error, description] of cases) {
      const q = await redirected(oauthAuthorize.check(params(extra), BASE));
      expect(q.error, JSON.stringify(extra)).toBe(error);
      expect(q.error_description).toMatch(description);
      expect(q).toMatchObject({ state: 'st-1', iss: BASE });
    }
  });

  it('a refusal by the user is access_denied at the redirect URI', async () => {
    const { oauthAuthorize, params } = await setup();
    const req = await oauthAuthorize.check(params(), BASE);
    const q = Object.fromEntries(new URL(oauthAuthorize.deny(req, BASE)).searchParams);
    expect(q).toMatchObject({ error: 'access_denied', state: 'st-1', iss: BASE });
  });
});

describe('OAuth authorize: consent', () => {
  it('consent with a live key issues a code for the redirect URI; only its hash is stored', async () => {
    const { oauthAuthorize, oauthStore, params, key } = await setup();
    const req = await oauthAuthorize.check(params(), BASE);
    const u = new URL(await oauthAuthorize.approveWithKey(req, ` ${key.raw} `, '203.0.113.9', BASE));
    expect(u.origin + u.pathname).toBe(REDIRECT);
    const code = u.searchParams.get('code')!;
    expect(code).toMatch(/^ncd_ac_/);
    expect(u.searchParams.get('state')).toBe('st-1');
    expect(u.searchParams.get('iss')).toBe(BASE);
    expect(oauthStore.codes.size).toBe(1);
    expect(oauthStore.codes.has(code)).toBe(false);
  });

  it('a malformed, unknown or deactivated key is a consent problem, and no code is issued', async () => {
    const { oauthAuthorize, oauthStore, keys, params, key } = await setup();
    const req = await oauthAuthorize.check(params(), BASE);
    await keys.deactivate(key.keyPrefix);
    for (const raw of ['not-a-key', 'ncd_' + 'A'.repeat(38), key.raw]) {
      const err = await rejection(oauthAuthorize.approveWithKey(req, raw, '203.0.113.9', BASE));
      expect(err).toBeInstanceOf(ConsentProblem);
      expect((err as ConsentProblem).status).toBe(400);
      expect((err as ConsentProblem).details).toEqual([{ path: 'key', message: 'is not an active API key' }]);
    }
    expect(oauthStore.codes.size).toBe(0);
  });

  it('consent by registering a new project creates it as registration does and issues its code', async () => {
    const { oauthAuthorize, mailer, params, apiKeys } = await setup();
    const req = await oauthAuthorize.check(params(), BASE);
    const location = await oauthAuthorize.approveWithNewProject(
      req,
      '198.51.100.7',
      { projectName: 'Beta Labs', email: 'beta@x.example', website: '' },
      BASE,
    );
    expect(new URL(location!).searchParams.get('code')).toMatch(/^ncd_ac_/);
    expect(mailer.sent.map((m) => m.projectName)).toContain('Beta Labs');
    expect((await apiKeys.listKeys({ project: 'beta labs' })).length).toBe(1);
  });

  it('a filled honeypot creates nothing; invalid fields, a taken name and the per-network window are consent problems', async () => {
    const { oauthAuthorize, params, apiKeys } = await setup();
    const req = await oauthAuthorize.check(params(), BASE);
    const ip = '198.51.100.8';
    expect(
      await oauthAuthorize.approveWithNewProject(
        req,
        ip,
        { projectName: 'Bot', email: 'b@x.example', website: 'spam' },
        BASE,
      ),
    ).toBeUndefined();
    expect(await apiKeys.listKeys({ project: 'bot' })).toEqual([]);

    const invalid = (await rejection(
      oauthAuthorize.approveWithNewProject(req, ip, { projectName: 'No mail' }, BASE),
    )) as ConsentProblem;
    expect(invalid).toBeInstanceOf(ConsentProblem);
    expect(invalid.status).toBe(400);
    expect(invalid.details).toEqual([{ path: 'body', message: 'must have required properties email' }]);

    const taken = (await rejection(
      oauthAuthorize.approveWithNewProject(req, ip, { projectName: 'ACME', email: 'x@y.example' }, BASE),
    )) as ConsentProblem;
    expect(taken.status).toBe(409);

    await oauthAuthorize.approveWithNewProject(req, ip, { projectName: 'Two', email: 't@x.example' }, BASE);
    await oauthAuthorize.approveWithNewProject(req, ip, { projectName: 'Three', email: 't@x.example' }, BASE);
    const limited = (await rejection(
      oauthAuthorize.approveWithNewProject(req, ip, { projectName: 'Four', email: 'f@x.example' }, BASE),
    )) as ConsentProblem;
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe(3600);
    expect(await apiKeys.listKeys({ project: 'four' })).toEqual([]);
  });
});
