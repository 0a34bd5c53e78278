// GET /setup?key=… — the page the setup link opens: the key's project, limits, usage with a
// 30-day chart, and quick starts. Not keyed (so viewing it costs no quota); never cached, never
// sent as a referrer; the request log strips the key from the URL (logger.ts) and the page's
// script strips it from the address bar. A link without a live key gets a 4xx page that does
// not repeat the key.
import { SetupQuery } from '../../contract/setup.ts';
import { isWellFormedKey } from '../../domain/api-key.ts';
import { publicBaseUrl } from '../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../types.ts';
import { SETUP_CSS, SETUP_CSS_PATH, SETUP_JS, SETUP_JS_PATH } from '../views/setup-assets.ts';
import { renderInvalidLinkPage, renderSetupPage } from '../views/setup-page.ts';

export default function setupRoute(app: Api, { ctx, services }: RouteDeps) {
  app.get('/setup', { schema: { hide: true, querystring: SetupQuery } }, async (req, reply) => {
    reply
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Robots-Tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8');
    const key = req.query.key;
    const base = publicBaseUrl(req, ctx.config);
    if (key === undefined || key === '') return reply.code(400).send(renderInvalidLinkPage('missing', base));
    if (typeof key !== 'string' || !isWellFormedKey(key))
      return reply.code(400).send(renderInvalidLinkPage('malformed', base));
    const overview = await services.keys.setupOverview(key);
    if (!overview) return reply.code(404).send(renderInvalidLinkPage('inactive', base));
    return renderSetupPage(overview, key, base);
  });

  // Content-hashed URLs: a new release changes the URL, so a year of caching is safe.
  for (const [path, type, content] of [
    [SETUP_CSS_PATH, 'text/css; charset=utf-8', SETUP_CSS],
    [SETUP_JS_PATH, 'text/javascript; charset=utf-8', SETUP_JS],
  ] as const) {
    app.get(path, { schema: { hide: true } }, async (_req, reply) => {
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').type(type);
      return content;
    });
  }
}
