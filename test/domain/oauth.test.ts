// Pure OAuth rules of the MCP sign-in: redirect URIs (RFC 8252 loopback, https), PKCE S256
// (a fixed verifier/challenge pair), and the shapes of our codes and tokens (redacted like keys).
import { describe, expect, it } from 'vitest';
import { keyShaped } from '../../src/domain/api-key.ts';
import {
  generateOAuthSecret,
  isS256Challenge,
  oauthSecretKind,
  pkceMatches,
  redirectUriMatches,
  redirectUriProblem,
} from '../../src/domain/oauth.ts';
import { redactText } from '../../src/logger.ts';

describe('redirect URIs', () => {
  it('accepts https and loopback http, refuses the rest', () => {
    expect(redirectUriProblem('https://claude.ai/api/mcp/auth_callback')).toBeUndefined();
    expect(redirectUriProblem('http://127.0.0.1:33418/callback')).toBeUndefined();
    expect(redirectUriProblem('http://localhost:8765/callback')).toBeUndefined();
    expect(redirectUriProblem('http://[::1]/cb')).toBeUndefined();
    expect(redirectUriProblem('http://evil.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://a.example/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('https://user:pw@a.example/cb')).toMatch(/credentials/);
    expect(redirectUriProblem('javascript:alert(1)')).toBeDefined();
    expect(redirectUriProblem('not a url')).toBeDefined();
  });

  it('matches exactly, except the port of a loopback URI', () => {
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb')).toBe(true);
    expect(redirectUriMatches('https://a.example/cb', 'https://a.example/cb2')).toBe(false);
    expect(redirectUriMatches('https://a.example:8443/cb', 'https://a.example:9443/cb')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:1000/callback', 'http://127.0.0.1:52100/callback')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1/callback', 'http://127.0.0.1:52100/callback')).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:1000/callback', 'http://127.0.0.1:1000/other')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:1000/callback', 'http://localhost:1000/callback')).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:1000/callback', 'http://127.0.0.1.evil.example/callback')).toBe(false);
  });
});

describe('PKCE S256', () => {
  // BASE64URL(SHA-256(verifier)), computed once and written down.
  const verifier = 'dBjftJeZ4CVP-mJ92K8lknuVfgPagXKn0tG59nWjK8U';
  const challenge = 'GiAzjC0BI34O9tkh78noKXsFyShj9jrOeHs7OChojOE';
  it('checks the verifier against the challenge', () => {
    expect(isS256Challenge(challenge)).toBe(true);
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(verifier.replace('d', 'e'), challenge)).toBe(false);
    expect(pkceMatches('short', challenge)).toBe(false);
  });
});

describe('codes and tokens', () => {
  it('have distinct, recognisable shapes that the logger redacts', () => {
    for (const kind of ['access', 'refresh', 'code'] as const) {
      const raw = generateOAuthSecret(kind);
      expect(oauthSecretKind(raw)).toBe(kind);
      expect(keyShaped().test(raw)).toBe(true);
      expect(redactText(`token=${raw} and ${raw}`)).not.toContain(raw.slice(7));
    }
    expect(generateOAuthSecret('access')).not.toBe(generateOAuthSecret('access'));
    expect(oauthSecretKind('ncd_at_short')).toBeUndefined();
    expect(oauthSecretKind('ncd_' + 'A'.repeat(38))).toBeUndefined();
  });
});
