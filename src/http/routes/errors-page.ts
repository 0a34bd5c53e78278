// GET /errors — the errors page that every error body's `docs` field links to.
import { publicBaseUrl } from '../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../types.ts';
import { renderErrorsPage } from '../views/errors-page.ts';

export default function errorsPageRoute(app: Api, { ctx }: RouteDeps) {
  app.get('/errors', { schema: { hide: true } }, async (req, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').type('text/html; charset=utf-8');
    return renderErrorsPage(publicBaseUrl(req, ctx.config));
  });
}
