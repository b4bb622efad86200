/**
 * The baseline server, run as its own process by bench/api-throughput: fastify with nothing but
 * the two routes, answering the JSON bodies the real server gave (read from BARE_BODIES, a file
 * `{ "get": …, "post": … }`). No logger, hooks, authentication or database: the ceiling of
 * fastify on this machine for the same bytes.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.env.BARE_BODIES ?? '', 'utf8')) as { get: unknown; post: unknown };
const app = Fastify({ logger: false });
app.get('/v1/reviews/:id', async () => bodies.get);
app.post('/v1/reviews', async (_request, reply) => reply.status(201).send(bodies.post));
app.get('/readyz', async () => ({ status: 'ready' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
