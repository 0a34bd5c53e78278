// The reference UI under our own name: Swagger UI (kept up by SmartBear, served from our origin
// by @fastify/swagger-ui) with our logo, title and favicon instead of the framework's, and a few
// style rules. Everything is a same-origin file or a data: image, so the strict CSP holds.

/** The mark: three bars, one per registry, beside the name. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40" viewBox="0 0 300 40">
<rect x="2" y="6" width="8" height="28" rx="2" fill="#ba0c2f"/>
<rect x="13" y="12" width="8" height="22" rx="2" fill="#003580"/>
<rect x="24" y="18" width="8" height="16" rx="2" fill="#fecc02"/>
<text x="42" y="27" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="19" font-weight="600" fill="#ffffff">Nordic Company Data API</text>
</svg>`;

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<rect x="2" y="4" width="8" height="24" rx="2" fill="#ba0c2f"/>
<rect x="12" y="10" width="8" height="18" rx="2" fill="#003580"/>
<rect x="22" y="16" width="8" height="12" rx="2" fill="#fecc02"/>
</svg>`;

// The top bar in our colour; its URL box is hidden (the page documents this server only).
const THEME_CSS = `.swagger-ui .topbar{background:#1d232a;padding:8px 0}
.swagger-ui .topbar .download-url-wrapper{display:none}
.swagger-ui .topbar-wrapper img{height:36px}
.swagger-ui .info .title small pre{background:none}`;

const DOCS_TITLE = 'Nordic Company Data API · reference';

export const docsTheme = {
  title: DOCS_TITLE,
  css: [{ filename: 'ncd-docs.css', content: THEME_CSS }],
  favicon: [
    { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) },
  ],
};

export const docsLogo = { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/', target: '_self' as const };
