// GET / — the landing page (what this server is, how to get a key, where the docs are).
import { publicBaseUrl } from '../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../types.ts';
import { renderLandingPage } from '../views/landing-page.ts';

export default function homeRoute(app: Api, { ctx }: RouteDeps) {
  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    return renderLandingPage(publicBaseUrl(req, ctx.config));
  });
}
