// OpenAPI 3.1 generated from the route schemas (GET /openapi.json) and Swagger UI (GET /docs),
// served locally with no CDN.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerDocs(app: FastifyInstance, baseUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Nordic Company Data API',
        version: '0.1.0',
        description: 'Company records from the Norwegian, Finnish and Swedish registries, with self-service API keys.',
      },
      servers: [{ url: baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key from POST /api/keys/register' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
