import { createRequire } from 'node:module';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/parse-timestamptz.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

// node-postgres's own timestamptz parser, the reference.
const parsePostgresDate = createRequire(import.meta.url)('postgres-date') as (text: string) => Date | number;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A timestamptz as PostgreSQL prints it (ISO style) at the given UTC offset, with `digits` fraction digits. */
function printed(utcMs: number, micros: number, digits: number, offsetMinutes: number): string {
  const local = new Date(utcMs + offsetMinutes * 60_000);
  const fraction = digits === 0 ? '' : `.${pad(local.getUTCMilliseconds() * 1000 + micros, 6).slice(0, digits)}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60), 2)}${abs % 60 === 0 ? '' : `:${pad(abs % 60, 2)}`}`;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)} ` +
    `${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}${fraction}${offset}`
  );
}

describe('parseTimestamptz', () => {
  it('reads every ISO-style timestamptz as node-postgres’s own parser does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(100, 0, 2), max: Date.UTC(9999, 11, 30) }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(0, 60, -300, 330, -570, 345, 840, -720),
        (utcMs, micros, digits, offset) => {
          const text = printed(utcMs, micros, digits, offset);
          expect(parseTimestamptz(text).getTime(), text).toBe((parsePostgresDate(text) as Date).getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('hands every other form to node-postgres’s parser', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-22 10:30:00+00 BC',
      '0044-03-15 12:00:00+00',
      '2026-11-22 10:30:00+05:30:15',
    ]) {
      const expected = parsePostgresDate(text);
      const got = parseTimestamptz(text);
      expect(got instanceof Date ? got.getTime() : got, text).toEqual(
        expected instanceof Date ? expected.getTime() : expected,
      );
    }
  });
});

describe('timestamptz read from the database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('arrives as the instant stored, whatever the session time zone prints', async () => {
    const instants = ['2026-11-22T10:30:00.123Z', '1999-12-31T23:59:59.999Z', '2026-03-29T01:00:00.000Z'];
    // One connection, so the time zone set is the one the reads see.
    await database.db.connection().execute(async (connection) => {
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
        await sql.raw(`set time zone '${zone}'`).execute(connection);
        for (const instant of instants) {
          const { rows } = await sql<{ at: Date }>`select ${instant}::timestamptz as at`.execute(connection);
          expect(rows[0]?.at.toISOString(), `${zone} ${instant}`).toBe(instant);
        }
      }
      await sql.raw('reset time zone').execute(connection);
    });
  });
});
