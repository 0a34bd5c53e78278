// GET /errors: every error code of the catalogue, its HTTP status, what it means and what to do.
// Each error body's `docs` link points at its code's row here (`/errors#<code>`).
import { errorCatalogueDocs } from '../../error-docs.ts';
import { escapeHtml } from './html.ts';
import { layout } from './layout.ts';

/** Escapes, then renders `code` spans (the docs texts use Markdown backticks). */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

export function renderErrorsPage(baseUrl: string): string {
  const rows = errorCatalogueDocs()
    .map(
      (d) => `<tr id="${d.code}"><td><a href="#${d.code}"><code>${d.code}</code></a></td><td>${d.status}</td>
<td>${inline(d.meaning)}</td><td>${inline(d.action)}</td></tr>`,
    )
    .join('\n');
  const base = escapeHtml(baseUrl);
  const body = `<header><p class="brand"><a href="${base}/">Nordic Company Data API</a></p>
<h1 id="errors">Error codes</h1>
<p class="meta">Every error body is <code>{ "error", "code", "details"?, "requestId", "docs" }</code>; <code>details[]</code> comes with validation errors, <code>docs</code> links to the code's row below. Quote the <code>requestId</code> when you report a problem.</p>
<nav><a href="${base}/docs">API reference</a> · <a href="${base}/openapi.json">OpenAPI document</a></nav></header>
<section aria-labelledby="errors"><table class="errors">
<thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th><th scope="col">what to do</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
  return layout('Error codes · Nordic Company Data API', body);
}
