// POST /api/integrations/hubspot/webhook and POST /api/integrations/attio/webhook — the CRMs'
// calls for enrich-on-write. Public (the CRM signs instead of sending a key), in the vendors' own
// formats, so they stay out of /openapi.json. The body is kept as the exact text that was signed;
// the answer comes at once, the work is queued (services/push/crm-writeback.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../../../errors.ts';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../../../types.ts';

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const text = (body: unknown) => (typeof body === 'string' ? body : '');

export default function integrationWebhookRoutes(app: Api, { services, ctx }: RouteDeps) {
  (app as unknown as FastifyInstance).register(async (scope) => {
    // Signed bytes: the JSON is parsed by the service after the signature is checked.
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1_000_000 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post('/api/integrations/hubspot/webhook', { schema: { hide: true } }, async (req) => {
      if (typeof req.body !== 'string') throw new ApiError('unsupported_media_type');
      return services.crmWriteback.hubspotWebhook({
        method: req.method,
        // HubSpot signs the URL it called: this server's public address and the path as sent.
        uri: `${publicBaseUrl(req, ctx.config)}${req.url}`,
        body: text(req.body),
        signature: header(req, 'x-hubspot-signature-v3'),
        timestamp: header(req, 'x-hubspot-request-timestamp'),
      });
    });

    const AttioQuery = Type.Object({
      destination: Type.Optional(
        Type.String({ maxLength: 64, description: 'The destination id the webhook was made for' }),
      ),
    });
    scope.post('/api/integrations/attio/webhook', { schema: { hide: true, querystring: AttioQuery } }, async (req) => {
      if (typeof req.body !== 'string') throw new ApiError('unsupported_media_type');
      const q = req.query as { destination?: string };
      return services.crmWriteback.attioWebhook({
        destinationId: typeof q.destination === 'string' ? q.destination : undefined,
        body: text(req.body),
        signature: header(req, 'attio-signature') ?? header(req, 'x-attio-signature'),
      });
    });
  });
}
