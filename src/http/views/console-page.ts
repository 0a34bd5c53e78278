// The one HTML document of the web console: every /console page is this shell, and the bundled
// script renders the page from the address. No inline script or style, so the console runs under
// the same strict Content-Security-Policy as every other page.
import type { ConsoleBundle } from './console-bundle.ts';

export function renderConsoleShell(bundle: ConsoleBundle): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>Console · Nordic Company Data</title>
<link rel="stylesheet" href="${bundle.style.path}">
<script src="${bundle.script.path}" defer></script>
</head><body>
<div id="app"><noscript><p>The console needs JavaScript. The API itself is documented at <a href="/docs">/docs</a>.</p></noscript></div>
</body></html>`;
}
