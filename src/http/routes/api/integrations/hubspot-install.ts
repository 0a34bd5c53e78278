// GET /api/integrations/hubspot/install (with the caller's key) redirects to HubSpot's authorize
// page; GET /api/integrations/hubspot/callback is where HubSpot sends the browser back, and it
// stores destination `hubspot-<portalId>`. Both need HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET
// (404 with a clear message without them). OAuth plumbing in HubSpot's format: not in /openapi.json.
import { Type } from 'typebox';
import { callerOf } from '../../../plugins/auth.ts';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function hubspotInstallRoutes(app: Api, { services, ctx }: RouteDeps) {
  app.get(
    '/api/integrations/hubspot/install',
    { config: { auth: 'key' }, schema: { hide: true } },
    async (req, reply) => {
      const url = services.hubspotInstall.installUrl(callerOf(req), publicBaseUrl(req, ctx.config));
      // The body names the URL too, for a client that does not follow redirects (curl, scripts).
      return reply.status(302).header('location', url).header('cache-control', 'no-store').send({ authorizeUrl: url });
    },
  );

  const CallbackQuery = Type.Object({
    code: Type.Optional(Type.String({ maxLength: 2000 })),
    state: Type.Optional(Type.String({ maxLength: 2000 })),
    error: Type.Optional(Type.String({ maxLength: 500 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  });
  app.get(
    '/api/integrations/hubspot/callback',
    { schema: { hide: true, querystring: CallbackQuery } },
    async (req, reply) => {
      const q = req.query as { code?: string; state?: string; error?: string };
      const result = await services.hubspotInstall.callback(
        { code: q.code, state: q.state, error: q.error },
        publicBaseUrl(req, ctx.config),
      );
      return reply.header('cache-control', 'no-store').send(result);
    },
  );
}
