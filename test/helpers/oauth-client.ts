// An MCP client's side of the OAuth sign-in for tests: an in-memory OAuthClientProvider (what an
// MCP host such as Claude Code keeps on disk), and the user's part of the consent page driven
// over HTTP (open the authorization URL, submit the form, follow nothing: read the Location).
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(readonly redirect = 'http://127.0.0.1:33418/callback') {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Orakel plugin (test)',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'state-' + Math.random().toString(36).slice(2);
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The consent form's fields for an authorization URL (the page posts them back). */
export function authorizeFields(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

/** Submits the consent form as the user would; returns the status and the redirect Location. */
export async function submitConsent(url: URL, choice: Record<string, string>) {
  const body = new URLSearchParams({ ...authorizeFields(url), ...choice });
  const res = await fetch(new URL('/api/oauth/authorize', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : undefined, html: await res.text() };
}

/** POSTs a form to an OAuth endpoint; JSON answer. */
export async function postForm(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}
