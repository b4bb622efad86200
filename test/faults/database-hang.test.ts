import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { isDatabaseUnavailable, StatementWaitTimeout } from '../../src/db/database-unavailable.js';
import { expectDatabaseUnavailable } from '../helpers/expect-unavailable.js';
import { describeOnPostgres } from '../helpers/postgres-only.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { until } from '../helpers/until.js';

/**
 * A TCP relay to PostgreSQL that can stop passing bytes without closing anything: a database
 * that hangs (a partition, a paused VM) rather than refusing, which neither ECONNREFUSED nor a
 * reset reveals. While frozen, new connections are accepted and get no answer.
 */
async function startFreezingRelay(target: { host: string; port: number }) {
  let frozen = false;
  // Connections made before the freeze that the app has closed since (the stuck ones).
  const openBeforeFreeze = new Set<net.Socket>();
  let closedAfterFreeze = 0;
  const held: Array<() => void> = [];
  const server = net.createServer((client) => {
    if (!frozen) openBeforeFreeze.add(client);
    const upstream = net.connect(target.port, target.host);
    const pass = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (frozen) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
    client.on('close', () => {
      if (frozen && openBeforeFreeze.has(client)) closedAfterFreeze += 1;
      openBeforeFreeze.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** How many connections are open to the database now (a pool of 2 holds 2 once warm). */
    open: () => openBeforeFreeze.size,
    freeze: () => {
      frozen = true;
    },
    /** How many chunks it has held back since the freeze (a query sent is one). */
    heldBack: () => held.length,
    /** Passes on what was held back (late answers included) and everything after. */
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    /** Connections open when the relay froze that the app has closed since. */
    closedAfterFreeze: () => closedAfterFreeze,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a query that got no answer', () => {
  it('counts as the database being away (503), as node-postgres words its query time-out', () => {
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout: something else'))).toBe(false);
  });

  it('counts a call that waited past the connect time-out for a shared statement as the database being away', () => {
    expect(isDatabaseUnavailable(new StatementWaitTimeout(400))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded waiting 400 ms for a shared statement to start'))).toBe(
      false,
    );
  });
});

/**
 * With a database that stops answering, requests answer 503 service_unavailable after the
 * configured waits (DATABASE_QUERY_TIMEOUT_MS for a query sent, DATABASE_CONNECT_TIMEOUT_MS for a
 * connection, a free slot in the pool or a shared statement's batch to start) instead of hanging; the connections that timed out are
 * dropped, not reused, and the service recovers by itself once the database answers again.
 */
describeOnPostgres('a database that hangs instead of refusing', () => {
  let direct: TestDatabase;
  let relay: Awaited<ReturnType<typeof startFreezingRelay>>;
  let t: TestApp;

  beforeAll(async () => {
    direct = await createTestDatabase();
    const target = new URL(direct.url ?? '');
    relay = await startFreezingRelay({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(target);
    url.host = `127.0.0.1:${relay.port}`;
    const handle = await openDatabase({ url: url.toString(), poolSize: 2, timeouts: { connectMs: 400, queryMs: 800 } });
    t = await createTestApp({ database: { ...handle, url: url.toString() } });
  });

  afterAll(async () => {
    relay?.thaw();
    await t?.close();
    await relay?.close();
    await direct?.close();
  });

  it('answers 503 with the error shape, drops the stuck connections and recovers', async () => {
    const { user } = await t.createUser();
    const key = await t.createToken(user.id);
    const list = () => t.app.inject({ url: '/v1/reviews', headers: { 'x-api-key': key } });
    expect((await list()).statusCode).toBe(200);
    await Promise.all([list(), list()]);
    expect(relay.open()).toBe(2);

    relay.freeze();
    // Two requests hold the pool's two connections with a query sent and no answer (each in a
    // batch of its own: the second is sent once the first query is out); the third waits for a
    // batch to start, which it gives up after the connect time-out (400 ms), before the two
    // queries time out (800 ms). None may hang.
    const first = list();
    await until('the first query to be sent', () => relay.heldBack() >= 1);
    const second = list();
    await until('the second query to be sent', () => relay.heldBack() >= 2);
    const answered: string[] = [];
    const noted = (name: string, res: ReturnType<typeof list>) =>
      res.then((r) => {
        answered.push(name);
        return r;
      });
    const answers = await Promise.all([noted('first', first), noted('second', second), noted('third', list())]);
    for (const res of answers) expectDatabaseUnavailable(res, t.clock.now());
    expect(answered[0]).toBe('third');
    // Both connections whose query timed out are closed by the app at once. Kept in the pool,
    // each would make the next query wait behind its lost one for another query timeout, until
    // the pool's idle timeout (10 s) ended it: the bound here is under that, so only the app's
    // own closing meets it (it happens as the 503s are answered, so load does not bring it near).
    await until('the timed-out connections to be closed', () => relay.closedAfterFreeze() === 2, 9_000);
    const readiness = await t.app.inject({ url: '/readyz' });
    expect(readiness.statusCode).toBe(503);

    relay.thaw();
    await until('requests to be served again', async () => (await list()).statusCode === 200);
    const res = await list();
    expect(res.json().data).toEqual([]);
  });
});
