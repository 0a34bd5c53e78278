// The HTML of the OAuth consent step (GET/POST /api/oauth/authorize): which application asks,
// for what, and two ways to allow it: paste an existing API key, or register a new free project
// (the fields of POST /api/keys/register, with its honeypot). Server-rendered under the same
// strict CSP as /setup; the form posts back to this server only.
import type { ErrorDetail } from '../../errors.ts';
import { escapeHtml } from './html.ts';
import { layout } from './layout.ts';

interface ConsentView {
  clientName: string | null;
  redirectUri: string;
  /** The authorization request, sent back with the user's choice. */
  hidden: Record<string, string>;
  error?: { message: string; details: ErrorDetail[] };
  /** The scopes asked for, with what each allows. */
  scopes?: { scope: string; allows: string }[];
  /** What the user typed in the registration form (never the key). */
  values?: { projectName?: string; email?: string; description?: string };
}

const hiddenFields = (hidden: Record<string, string>) =>
  Object.entries(hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');

function scopeList(scopes: ConsentView['scopes']): string {
  if (!scopes?.length) return '';
  const items = scopes.map((s) => `<li><code>${escapeHtml(s.scope)}</code>: ${escapeHtml(s.allows)}</li>`).join('');
  return `<p>It asks for:</p><ul id="consent-scopes">${items}</ul><p class="meta">Nothing beyond these scopes is allowed.</p>`;
}

export function renderConsentPage(v: ConsentView): string {
  const app = v.clientName ? escapeHtml(v.clientName) : 'An application';
  const host = escapeHtml(new URL(v.redirectUri).host);
  const hidden = hiddenFields(v.hidden);
  const val = (s: string | undefined) => (s === undefined ? '' : ` value="${escapeHtml(s)}"`);
  const error = v.error
    ? `<div class="error" role="alert" id="consent-error"><p>${escapeHtml(v.error.message)}</p>${
        v.error.details.length
          ? `<ul>${v.error.details.map((d) => `<li>${escapeHtml(d.path)}: ${escapeHtml(d.message)}</li>`).join('')}</ul>`
          : ''
      }</div>`
    : '';
  const body = `<header><p class="brand">Nordic Company Data API · sign in</p>
<h1 id="consent-title">${app} wants to use your API key</h1>
<p class="meta">It will call the MCP tools as your project, counted against your project's limits. After you allow it, your browser returns to <code>${host}</code>.</p>
${scopeList(v.scopes)}</header>
${error}
<section aria-labelledby="key-h"><h2 id="key-h">Use an existing API key</h2>
<form method="post" action="/api/oauth/authorize" id="key-form">
${hidden}
<input type="hidden" name="action" value="key">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="off" required spellcheck="false">
<button type="submit" id="allow-key">Allow</button>
</form>
</section>

<section aria-labelledby="register-h"><h2 id="register-h">Or register a new free project</h2>
<p>The key is created now and its setup link is e-mailed to you.</p>
<form method="post" action="/api/oauth/authorize" id="register-form">
${hidden}
<input type="hidden" name="action" value="register">
<label for="projectName">Project name</label>
<input id="projectName" name="projectName" maxlength="100" required${val(v.values?.projectName)}>
<label for="email">E-mail</label>
<input id="email" name="email" type="email" maxlength="320" required${val(v.values?.email)}>
<label for="description">Description (optional)</label>
<input id="description" name="description" maxlength="500"${val(v.values?.description)}>
<div class="hp" aria-hidden="true"><label for="website">Website</label><input id="website" name="website" tabindex="-1" autocomplete="off"></div>
<button type="submit" id="allow-register">Register and allow</button>
</form>
</section>

<form method="post" action="/api/oauth/authorize" id="deny-form">
${hidden}
<input type="hidden" name="action" value="deny">
<button type="submit" id="deny">Deny</button>
</form>`;
  return layout('Sign in · Nordic Company Data API', body);
}

/** A request that cannot go back to the application (unknown client, unregistered redirect). */
/**
 * A sign-in request that cannot go on. `returnTo` (the error response at the client's registered
 * redirect URI) is offered as a link the user may follow, never followed for them: redirect URIs
 * are registered by anyone (dynamic registration), so an automatic redirect would make this
 * page an open redirector (RFC 9700 §4.11.2).
 */
export function renderAuthorizeErrorPage(message: string, returnTo?: string): string {
  const back = returnTo
    ? `<p>You can <a rel="noreferrer" href="${escapeHtml(returnTo)}">return to the application at ${escapeHtml(new URL(returnTo).origin)}</a>, or start the sign-in again from your application.</p>`
    : '<p>Start the sign-in again from your application.</p>';
  const body = `<header><p class="brand">Nordic Company Data API · sign in</p><h1 id="authorize-error">This sign-in link does not work</h1></header>
<p>${escapeHtml(message)}</p>
${back}`;
  return layout('Sign-in error · Nordic Company Data API', body);
}

/** What the honeypot answers (nothing was created), as /api/keys/register does. */
export function renderConsentReceivedPage(): string {
  return layout(
    'Registration received',
    `<header><p class="brand">Nordic Company Data API · sign in</p><h1>Registration received</h1></header><p>Check your e-mail.</p>`,
  );
}
