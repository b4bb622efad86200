import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { yieldAfterQuery } from '../../src/db/yield-after-query.js';

// The embedded database answers inside this process, through promise callbacks: without a turn
// of the event loop between statements, a queue of them kept every socket waiting until it was
// empty (src/db/yield-after-query.ts). Both databases' runs use PGlite here: the behaviour is
// the embedded one's. Statements of the default budget (10 ms) are counted, never timed.
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

  /** Queues `count` statements at once on `db`, as requests and workers do; resolves when all have answered. */
  function queueStatements(count: number, onEach: (i: number) => void, db: Kysely<Database> = database.db) {
    return Promise.all(
      Array.from({ length: count }, (_, i) =>
        sql<{ n: number }>`select ${i}::int as n`.execute(db).then((result) => {
          expect(result.rows).toEqual([{ n: i }]);
          onEach(i);
        }),
      ),
    ).then(() => undefined);
  }

  /**
   * How many of `count` queued statements had answered when a callback queued before them ran;
   * undefined when it had not run by the time the last one answered.
   */
  async function answeredBeforeTurn(count: number, db: Kysely<Database>): Promise<number | undefined> {
    let answered = 0;
    let answeredAtTurn: number | undefined;
    setImmediate(() => {
      answeredAtTurn = answered;
    });
    await queueStatements(
      count,
      () => {
        answered += 1;
      },
      db,
    );
    expect(answered).toBe(count);
    return answeredAtTurn;
  }

  it('without the plugin, a queue of statements keeps the event loop from a turn until it is empty', async () => {
    expect(await answeredBeforeTurn(50, database.db.withoutPlugins())).toBeUndefined();
  });

  it('with a budget not yet spent, a queue of statements runs on without a turn', async () => {
    // 50 trivial statements take milliseconds, far below a minute: what keeps GET bursts batched.
    const db = database.db.withoutPlugins().withPlugin(yieldAfterQuery(60_000));
    expect(await answeredBeforeTurn(50, db)).toBeUndefined();
  });

  it('with a budget of 0, the loop gets its turn at the second statement of a queue', async () => {
    const db = database.db.withoutPlugins().withPlugin(yieldAfterQuery(0));
    expect(await answeredBeforeTurn(50, db)).toBeLessThanOrEqual(2);
  });

  it('with the budget spent, a statement gives the loop its turn and the next ones start a new budget', async () => {
    let turns = 0;
    let answered = 0;
    const db = database.db.withoutPlugins().withPlugin(yieldAfterQuery(0));
    const statements = queueStatements(
      200,
      () => {
        answered += 1;
      },
      db,
    );
    const countTurns = () => {
      turns += 1;
      if (answered < 200) setImmediate(countTurns);
    };
    setImmediate(countTurns);
    await statements;
    // Budget 0: every second statement waits for a turn, so about 100 turns, each a new chain.
    expect(turns).toBeGreaterThanOrEqual(90);
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

    it('answers a request sent while 2,000 statements are queued before they have all run', async () => {
      let answered = 0;
      const statements = queueStatements(2000, () => {
        answered += 1;
      });
      const response = await fetch(url);
      const answeredWhenServed = answered;
      expect(await response.text()).toBe('ok');
      await statements;
      expect(answered).toBe(2000);
      expect(answeredWhenServed).toBeLessThan(2000);
    });
  });
});
