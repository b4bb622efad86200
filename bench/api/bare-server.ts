/**
 * The baseline server, run as its own process by bench/api-throughput: fastify with nothing but
 * the two routes, answering the JSON bodies the real server gave (read from BARE_BODIES, a file
 * `{ "get": …, "post": … }`). No logger, hooks, authentication or database: the ceiling of
 * fastify on this machine for the same bytes.
 *
 * With BARE_DATABASE_URL, also `GET /floor/v1/reviews/:id`: the same answer after one round trip
 * to PostgreSQL (a prepared `select` of the id, pool of 10 as the real server): the floor of any
 * request that must ask the database once, whatever it asks.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const bodies = JSON.parse(readFileSync(process.env.BARE_BODIES ?? '', 'utf8')) as { get: unknown; post: unknown };
const app = Fastify({ logger: false });
app.get('/v1/reviews/:id', async () => bodies.get);
app.post('/v1/reviews', async (_request, reply) => reply.status(201).send(bodies.post));
const databaseUrl = process.env.BARE_DATABASE_URL;
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : undefined;
if (pool !== undefined) {
  app.get<{ Params: { id: string } }>('/floor/v1/reviews/:id', async (request) => {
    await pool.query({ name: 'floor', text: 'select $1::text as id', values: [request.params.id] });
    return bodies.get;
  });
}
app.get('/readyz', async () => ({ status: 'ready' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = () =>
  void app.close().then(async () => {
    await pool?.end();
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
