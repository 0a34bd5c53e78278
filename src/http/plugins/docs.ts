// OpenAPI 3.1 generated from the route schemas (GET /openapi.json) and the API reference UI
// (GET /docs), served locally with no CDN. The document's `servers` entry is the request's public
// base URL (BASE_URL, or the request's own host when BASE_URL is left at its default), so "Try it
// out" in /docs calls the server the reader is looking at. The conventions every operation follows
// (operationId, security, headers, per-status errors) are applied centrally in
// openapi-conventions.ts, so routes added later comply without edits.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/index.ts';
import { docsLogo, docsTheme } from './docs-theme.ts';
import { applyDocumentConventions, applyRouteSecurity } from './openapi-conventions.ts';
import { publicBaseUrl } from './security-headers.ts';

export async function registerDocs(app: FastifyInstance, config: Config) {
  const withServer = (doc: Record<string, unknown>, req: FastifyRequest) => ({
    ...doc,
    servers: [{ url: publicBaseUrl(req, config), description: 'This server' }],
  });
  app.addHook('onRoute', applyRouteSecurity);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Nordic Company Data API',
        version: '0.1.0',
        description:
          'Company data from the Norwegian, Finnish, Swedish and Danish registries: records and financial statements, shareholders, ultimate owners and group trees, PEP/sanctions screening and signed evidence packs, public procurement (Doffin, TED), statistics from the four national bureaus (market context), name matching to organisation numbers, and monitoring (change feed, typed events, an event stream and watchlists with alerts), push to webhooks and CRMs (HubSpot, Attio). Self-service API keys with quotas; the MCP endpoint also takes OAuth sign-in for AI agents. Every error body links to its code on the [errors page](/errors).',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      servers: [{ url: config.baseUrl, description: 'This server' }],
      // Shown in this order in /docs; every operation carries request and response examples.
      tags: [
        {
          name: 'companies',
          description: 'Lookup, search, batch enrich, name matching, group trees and the change feed',
        },
        {
          name: 'shareholders',
          description:
            'Holders of a company and holdings of a holder (Aksjonærregisteret, Norway), ultimate owners and ownership changes (Norway, Denmark)',
        },
        { name: 'screening', description: 'PEP and sanctions screening of a company, its roles and owners' },
        { name: 'inspections', description: 'Mattilsynet food-safety inspections (Norway)' },
        { name: 'licenses', description: 'Alcohol and tobacco licences (Norway)' },
        { name: 'enrichment', description: 'Company web domains and the scoring behind them' },
        {
          name: 'reference',
          description: 'Reference lists (municipalities and counties) and market context from the statistics bureaus',
        },
        { name: 'evidence', description: 'Signed KYB evidence packs and the keys that verify them' },
        { name: 'procurement', description: 'Public procurement notices (Doffin, TED) by buyer and winner' },
        {
          name: 'monitoring',
          description: 'Typed company events, the event stream, watchlists and their alert deliveries',
        },
        { name: 'destinations', description: 'Destinations for push: webhooks, HubSpot and Attio' },
        { name: 'push', description: 'Send full company records to a destination' },
        { name: 'keys', description: 'Self-service API keys, usage and access requests' },
        {
          name: 'mcp',
          description: 'Model Context Protocol endpoint for AI assistants (the same key and limits, or OAuth sign-in)',
        },
        { name: 'health', description: 'Liveness, diagnostics and coverage' },
      ],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key from POST /api/keys/register' },
        },
      },
    },
    transformObject: (documentObject) => {
      const { openapiObject } = documentObject as { openapiObject: Record<string, unknown> };
      return applyDocumentConventions(openapiObject) as typeof openapiObject;
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: docsTheme,
    logo: docsLogo,
    // "Try it out" open from the start: a reader with a key calls the API at once.
    uiConfig: { tryItOutEnabled: true, displayRequestDuration: true },
    staticCSP: true,
    // Swagger UI's bundle injects <style> elements and style attributes from script, which its
    // own CSP (style-src 'self' https:) refuses: the browser logged a CSP error on every load of
    // /docs. Styles may be inline here (they cannot run code); scripts stay 'self' only.
    transformStaticCSP: (csp) => csp.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
    transformSpecification: (doc, req) => withServer(doc as Record<string, unknown>, req),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (req) =>
    withServer(app.swagger() as unknown as Record<string, unknown>, req),
  );
}
