// GET /console, /console/companies/{orgNumber}, /console/usage, /console/destinations and
// /console/watchlists — the web console's pages (one shell; the script renders the page from
// the address), and its content-hashed assets. Not keyed: the pages hold no data; the script
// calls the public API with the key the user pasted, kept in the browser session only.
import type { FastifyReply } from 'fastify';
import type { Api, RouteDeps } from '../types.ts';
import { consoleBundle } from '../views/console-bundle.ts';
import { renderConsoleShell } from '../views/console-page.ts';

const PAGES = [
  '/console',
  '/console/companies/:orgNumber',
  '/console/usage',
  '/console/destinations',
  '/console/watchlists',
];

async function shell(reply: FastifyReply) {
  const bundle = await consoleBundle();
  reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .type('text/html; charset=utf-8');
  return renderConsoleShell(bundle);
}

export default function consoleRoutes(app: Api, _deps: RouteDeps) {
  for (const path of PAGES) app.get(path, { schema: { hide: true } }, (_req, reply) => shell(reply));

  app.get('/console/assets/:file', { schema: { hide: true } }, async (req, reply) => {
    const bundle = await consoleBundle();
    const asset = [bundle.script, bundle.style].find((a) => a.path === req.url);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // Content-hashed names: a new build changes the URL, so a year of caching is safe.
    reply.header('Cache-Control', 'public, max-age=31536000, immutable').type(asset.type);
    return asset.body;
  });
}
