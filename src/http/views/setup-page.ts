// The HTML of GET /setup: the key's project, limits, usage with a 30-day chart, reset times,
// quick starts and links to the docs; or a plain page saying why a link does not work.
// Everything is rendered here; the one script (setup-assets.ts) only tidies the address bar,
// wires the copy buttons and adds local times.
import type { KeyManagementService } from '../../services/access/key-management.ts';
import { escapeHtml } from './html.ts';
import { copyable, layout } from './layout.ts';
import { renderUsageChart } from './usage-chart.ts';

type SetupOverview = NonNullable<Awaited<ReturnType<KeyManagementService['setupOverview']>>>;
type InvalidLinkReason = 'missing' | 'malformed' | 'inactive';

const fmt = (n: number) => n.toLocaleString('en-US');
const limitText = (n: number | null) => (n === null ? 'unlimited' : fmt(n));
const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

// The snippets never carry the key itself: it goes into NCD_API_KEY once (read -s: not echoed,
// not in the shell history), which curl, the client and `ncd enrich` read. A key on a command
// line shows in `ps`, in shell history and in screenshots of a terminal.
const KEY_ENV = [
  `# Paste the key when asked (it is not shown and not saved in your shell history)`,
  `read -rs NCD_API_KEY && export NCD_API_KEY`,
].join('\n');

function quickStarts(base: string): string {
  const auth = `-H "Authorization: Bearer $NCD_API_KEY"`;
  const curl = [
    `# Your usage and limits (not counted)`,
    `curl ${auth} "${base}/api/keys/usage"`,
    ``,
    `# Companies in Oslo (municipality 0301)`,
    `curl ${auth} "${base}/api/companies?municipality=0301"`,
    ``,
    `# One company by organisation number`,
    `curl ${auth} "${base}/api/companies/810000023"`,
  ].join('\n');
  const js = [
    `// Install from a checkout of the server's repository (npm: once published,`,
    `// npm install @nordic-company-data/client):`,
    `//   npm pack ./clients/js --pack-destination .. && npm install ../nordic-company-data-client-*.tgz`,
    `import { NcdClient } from '@nordic-company-data/client';`,
    ``,
    `// The key comes from NCD_API_KEY.`,
    `const client = new NcdClient({ baseUrl: '${base}' });`,
    `for await (const company of client.companies.search({ municipality: '0301' })) {`,
    `  console.log(company.orgNumber, company.name);`,
    `}`,
  ].join('\n');
  const cli = [
    `# Install the ncd command from a checkout of the server's repository`,
    `# (npm: once published, npm install -g nordic-company-data):`,
    `#   npm pack --pack-destination .. && npm install -g --allow-scripts=esbuild ../nordic-company-data-*.tgz`,
    `# Adds company data to every row of a CSV that has organisation numbers in column "orgnr"`,
    `ncd enrich input.csv --column orgnr --out enriched.csv --url ${base}`,
  ].join('\n');
  const rotate = `curl -X POST ${auth} "${base}/api/keys/rotate"`;
  return `<section aria-labelledby="qs-h"><h2 id="qs-h">Quick start</h2>
<h3>Keep the key in an environment variable</h3>${copyable('qs-env', KEY_ENV)}
<h3>curl</h3>${copyable('qs-curl', curl)}
<h3>JavaScript (typed client)</h3>${copyable('qs-js', js)}
<h3>Command line: enrich a CSV</h3>${copyable('qs-cli', cli)}
<h3>Rotate the key if it leaks</h3>${copyable('qs-rotate', rotate)}
<p>Rotating returns a new key at once; the old key and this link stop working.</p>
</section>`;
}

/** Links to the docs at the top of every page of the newcomer path. */
const docsNav = (baseUrl: string) => {
  const base = escapeHtml(baseUrl);
  return `<nav class="docs-nav" aria-label="Documentation"><a href="${base}/docs">API reference</a> · <a href="${base}/openapi.json">OpenAPI document</a> · <a href="${base}/errors">Error codes</a></nav>`;
};

/** How much of a quota is used; no meter for an unlimited one (there is nothing to fill). */
function meter(id: string, label: string, used: number, limit: number | null): string {
  if (limit === null || limit <= 0) return '';
  return `<meter id="${id}" min="0" max="${limit}" low="${Math.floor(limit * 0.7)}" high="${Math.floor(limit * 0.9)}" optimum="0" value="${Math.min(used, limit)}" aria-label="${label}: ${fmt(used)} of ${fmt(limit)}">${fmt(used)} of ${fmt(limit)}</meter>`;
}

/**
 * The key is masked on screen (a shared screen or a screenshot shows only its prefix); the page
 * script hides the full key and shows the Reveal and Copy buttons. Copy copies the full key
 * either way. Without script the key stays visible, as it must stay obtainable.
 */
function secretKey(rawKey: string, keyPrefix: string): string {
  const masked = `${keyPrefix}${'•'.repeat(Math.max(8, rawKey.length - keyPrefix.length))}`;
  return `<div class="copyable"><pre><code id="api-key-masked" hidden>${escapeHtml(masked)}</code><code id="api-key" data-secret>${escapeHtml(rawKey)}</code></pre><span class="buttons"><button type="button" data-reveal="api-key" hidden>Reveal</button><button type="button" data-copy="api-key" hidden>Copy</button></span></div>`;
}

export function renderSetupPage(o: SetupOverview, rawKey: string, baseUrl: string): string {
  const u = o.usage;
  const l = o.limits;
  const left = (remaining: number | null) => (remaining === null ? 'no limit' : `${fmt(remaining)} left`);
  const body = `<header><p class="brand">Nordic Company Data API · key setup</p>
${docsNav(baseUrl)}
<h1 id="project-name">${escapeHtml(o.projectName)}</h1>
<p class="meta">Tier <strong id="tier">${escapeHtml(o.tier)}</strong> · key <code>${escapeHtml(o.keyPrefix)}…</code></p></header>

<section aria-labelledby="key-h"><h2 id="key-h">Your API key</h2>
${secretKey(rawKey, o.keyPrefix)}
<p class="note">Keep it secret: whoever has it uses your quota. This page has taken it out of the address bar; send it only as <code>Authorization: Bearer …</code>.</p>
</section>

<section aria-labelledby="usage-h"><h2 id="usage-h">Usage</h2>
<div class="cards">
<div class="card"><h3>Today</h3><p class="num" id="usage-today">${fmt(u.today)}</p>${meter('meter-today', 'Used today', u.today, l.dailyLimit)}<p>of ${limitText(l.dailyLimit)} · ${left(u.dailyRemaining)}</p>
<p>Resets <time data-local datetime="${o.resets.daily}">${utcText(o.resets.daily)}</time></p></div>
<div class="card"><h3>This month</h3><p class="num" id="usage-month">${fmt(u.thisMonth)}</p>${meter('meter-month', 'Used this month', u.thisMonth, l.monthlyLimit)}<p>of ${limitText(l.monthlyLimit)} · ${left(u.monthlyRemaining)}</p>
<p>Resets <time data-local datetime="${o.resets.monthly}">${utcText(o.resets.monthly)}</time></p></div>
<div class="card"><h3>All time</h3><p class="num" id="usage-total">${fmt(u.total)}</p><p>requests counted</p></div>
</div>
${renderUsageChart(o.history)}
<p>Viewing this page does not count as usage.</p>
</section>

<section aria-labelledby="limits-h"><h2 id="limits-h">Limits</h2>
<dl class="limits">
<dt>Requests per minute</dt><dd>${limitText(l.rateLimitPerMinute)}</dd>
<dt>Requests per day</dt><dd>${limitText(l.dailyLimit)}</dd>
<dt>Requests per month</dt><dd>${limitText(l.monthlyLimit)}</dd>
<dt>Rows per page</dt><dd>${fmt(l.maxPageSize)}</dd>
<dt>Push to destinations</dt><dd>${l.canPush ? 'yes' : 'no'}</dd>
<dt>Search needs a filter</dt><dd>${l.requireFilterOnSearch ? 'yes' : 'no'}</dd>
</dl>
</section>

${quickStarts(baseUrl)}

<section aria-labelledby="docs-h"><h2 id="docs-h">Documentation</h2>
<p><a href="${escapeHtml(baseUrl)}/docs">API reference</a> · <a href="${escapeHtml(baseUrl)}/openapi.json">OpenAPI document</a></p>
</section>`;
  return layout(`${o.projectName} · API key setup`, body);
}

const INVALID: Record<InvalidLinkReason, { title: string; text: string }> = {
  missing: {
    title: 'This setup link has no key',
    text: 'Open the link from your registration e-mail again; it carries the key. The page takes the key out of the address bar after loading, so reloading it shows this message.',
  },
  malformed: {
    title: 'This setup link is incomplete',
    text: 'The key in the link does not have the format of an API key: the link was probably cut off or changed. Open the complete link from your registration e-mail.',
  },
  inactive: {
    title: 'This key is not active',
    text: 'The key in this link was rotated, or never existed. After a rotation, use the new key that the rotate call returned; links of old keys stop working.',
  },
};

export function renderInvalidLinkPage(reason: InvalidLinkReason, baseUrl: string): string {
  const { title, text } = INVALID[reason];
  const register = `curl -X POST "${baseUrl}/api/keys/register" -H "content-type: application/json" \\\n  -d '{"projectName":"My project","email":"you@example.com"}'`;
  const body = `<header><p class="brand">Nordic Company Data API · key setup</p><h1 id="invalid-link">${escapeHtml(title)}</h1></header>
<p>${escapeHtml(text)}</p>
<h2>Need a new key?</h2>
${copyable('qs-register', register)}
<p><a href="${escapeHtml(baseUrl)}/docs">API reference</a></p>`;
  return layout(title, body);
}
