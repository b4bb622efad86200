import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';

// The embedded database answers inside this process, through promise callbacks: without a turn
// of the event loop between statements, a queue of them kept every socket waiting until it was
// empty (src/db/yield-after-query.ts). Both databases' runs use PGlite here: the behaviour is
// the embedded one's.
describe('the embedded database leaves the event loop a turn between statements', () => {
  let lite: PGlite;
  let database: DatabaseHandle;
  beforeAll(async () => {
    lite = new PGlite();
    database = await openDatabase({ pglite: lite });
    // The pool's one connection is made: what follows measures statements, not connecting.
    await sql`select 1`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    await lite.close();
  });

  /** Queues `count` statements at once, as requests and workers do; resolves when all have answered. */
  function queueStatements(count: number, onEach: (i: number) => void): Promise<void> {
    return Promise.all(
      Array.from({ length: count }, (_, i) =>
        sql<{ n: number }>`select ${i}::int as n`.execute(database.db).then((result) => {
          expect(result.rows).toEqual([{ n: i }]);
          onEach(i);
        }),
      ),
    ).then(() => undefined);
  }

  it('runs a callback queued before a queue of statements after the first of them, not after the last', async () => {
    let answered = 0;
    let answeredAtTurn: number | undefined;
    setImmediate(() => {
      answeredAtTurn = answered;
    });
    await queueStatements(50, () => {
      answered += 1;
    });
    expect(answered).toBe(50);
    expect(answeredAtTurn).toBeLessThanOrEqual(1);
  });

  describe('with an HTTP server in the same process', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_request, response) => response.end('ok'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('answers a request sent while 1,000 statements are queued before they have all run', async () => {
      let answered = 0;
      const statements = queueStatements(1000, () => {
        answered += 1;
      });
      const response = await fetch(url);
      const answeredWhenServed = answered;
      expect(await response.text()).toBe('ok');
      await statements;
      expect(answered).toBe(1000);
      expect(answeredWhenServed).toBeLessThan(1000);
    });
  });
});
