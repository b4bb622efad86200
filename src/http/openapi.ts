import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SUPPORTED_VERSIONS } from './api-version.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the zod objects that validate
 * requests and shape responses), so it cannot drift from what the server does. Served as JSON at
 * `/v1/openapi.json` and as a readable page at `/docs`.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Redline API',
        version: SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1] as string,
        description: [
          'AI-assisted pull-request reviews. Send `X-Svc-Version` (supported: ' +
            `${SUPPORTED_VERSIONS.join(', ')}; default: the newest) and a credential in ` +
            '`Authorization: Bearer` or `X-API-Key`. Success bodies are `{ data, meta }`; errors are ' +
            '`{ error: { type, message, code, status, details }, meta }` (the sign-in and token endpoints ' +
            'answer `{ error: { code, message, status } }`).',
        ].join(''),
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The sign-in JWT, or an API key.' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An svc_live_ or svc_test_ key.' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'redline_session',
            description:
              'The dashboard session (POST /api/auth/session); state-changing requests also send X-CSRF-Token from GET /api/auth/session.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
