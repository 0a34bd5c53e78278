// The frame of the server-rendered pages (setup, landing): same-origin stylesheet and script
// only, so they run under the strict Content-Security-Policy.
import { escapeHtml } from './html.ts';
import { SETUP_CSS_PATH, SETUP_JS_PATH } from './setup-assets.ts';

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SETUP_CSS_PATH}">
<script src="${SETUP_JS_PATH}" defer></script>
</head><body><main>
${body}
</main></body></html>`;
}

/** A code block with a Copy button (shown by the page script). */
export function copyable(id: string, text: string): string {
  return `<div class="copyable"><pre><code id="${id}">${escapeHtml(text)}</code></pre><span class="buttons"><button type="button" data-copy="${id}" hidden>Copy</button></span></div>`;
}
