// GET /: a small page for whoever opens the server's address in a browser, instead of a JSON
// 404. It says what this is and links to the docs; the register command uses the address the
// reader reached us at.
import { copyable, layout } from './layout.ts';
import { escapeHtml } from './html.ts';

export function renderLandingPage(baseUrl: string): string {
  const base = escapeHtml(baseUrl);
  const register = [
    `curl -X POST "${baseUrl}/api/keys/register" -H "content-type: application/json" \\`,
    `  -d '{"projectName":"My project","email":"you@example.com"}'`,
  ].join('\n');
  const body = `<header><p class="brand">Nordic Company Data API</p>
<h1 id="landing">Company data from the Nordic registries</h1>
<p class="meta">Norway, Finland, Sweden and Denmark: company records and financial statements, shareholders, ultimate owners and group trees, PEP/sanctions screening and signed evidence packs, public procurement, statistics from the four bureaus, name matching, and monitoring with events and watchlists.</p>
<p>Over REST with a self-service API key, and over MCP for AI agents, who can sign in with OAuth instead of a key.</p></header>
<section aria-labelledby="start-h"><h2 id="start-h">Get started</h2>
<p>Register a free API key; the answer carries the key and a link to its setup page.</p>
${copyable('landing-register', register)}
</section>
<section aria-labelledby="docs-h"><h2 id="docs-h">Documentation</h2>
<p><a id="docs-link" href="${base}/docs">API reference</a> · <a href="${base}/openapi.json">OpenAPI document</a> · <a href="${base}/api/health">Health</a></p>
</section>`;
  return layout('Nordic Company Data API', body);
}
