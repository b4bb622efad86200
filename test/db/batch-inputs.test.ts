import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchInputsFrom, batchInputsParameter, inInputOrder } from '../../src/db/batch-inputs.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

describe('batch inputs as one JSON parameter', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const FROM = batchInputsFrom([
    { name: 'label', type: 'text' },
    { name: 'at', type: 'timestamptz' },
  ]);

  async function roundTrip(rows: (string | number)[][]) {
    const result = await database.db.executeQuery<{ ord: number; label: string; at: Date; bytes: number }>(
      CompiledQuery.raw(`select q.ord, q.label, q.at, octet_length(q.label) as bytes from ${FROM} order by q.ord`, [
        batchInputsParameter(rows),
      ]),
    );
    return result.rows;
  }

  it('arrives as the values sent, in order, numbered from 1, times exact to the millisecond', async () => {
    // Times before 1970 and on second and hour boundaries, sent as epoch milliseconds.
    const at = ['2026-11-22T10:59:59.999Z', '1969-12-31T23:59:59.001Z', '2026-11-22T11:00:00.000Z'];
    // Strings an array literal or a JSON text would have to escape travel as data.
    const labels = ['rev_"quoted",{braced}', 'NULL', 'back\\slash\\ and \\ud800 as text', 'emoji 🦊 ✓ é'];
    const sent = labels.map((label, i) => [label, at[i % at.length] as string]);
    const rows = await roundTrip(sent.map(([label, time]) => [label as string, Date.parse(time as string)]));
    expect(rows.map((row) => [row.ord, row.label, row.at.toISOString()])).toEqual(
      sent.map(([label, time], i) => [i + 1, label, time]),
    );
    expect(typeof rows[0]?.ord).toBe('number');
  });

  it('sends a lone surrogate as U+FFFD, as text did, instead of failing the whole batch', async () => {
    const rows = await roundTrip([
      ['lone \ud800 high', Date.UTC(2026, 10, 22, 10)],
      ['ok', Date.UTC(2026, 10, 22, 10)],
      ['lone \udc00 low, then a pair 🦊', Date.UTC(2026, 10, 22, 10)],
    ]);
    expect(rows.map((row) => row.label)).toEqual(['lone \ufffd high', 'ok', 'lone \ufffd low, then a pair 🦊']);
    // Three bytes for U+FFFD in UTF-8: it is the character, not an escape's text.
    expect(rows[0]?.bytes).toBe(Buffer.byteLength('lone \ufffd high'));
  });

  it('places result rows by ord and drops it; inputs without a row stay undefined', () => {
    const placed = inInputOrder(
      [
        { ord: 3, id: 'c' },
        { ord: 1, id: 'a' },
      ],
      4,
    );
    expect(placed).toEqual([{ id: 'a' }, undefined, { id: 'c' }, undefined]);
  });
});
