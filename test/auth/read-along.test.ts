import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type ReadAlong, readAlongFor, readAlongKey } from '../../src/auth/read-along.js';

const along: ReadAlong<{ name: string }> = { param: 'id', read: () => sql`select 1 as name`, columns: ['name'] };
const other: ReadAlong<{ name: string }> = { param: 'id', read: () => sql`select 2 as name`, columns: ['name'] };
const request = (fields: Partial<FastifyRequest>) => fields as FastifyRequest;

describe('readAlongKey', () => {
  it("takes the route's path parameter", () => {
    expect(readAlongKey(along, request({ params: { id: 'rev_1' } }))).toBe('rev_1');
    expect(readAlongKey(along, request({ params: { id: '' } }))).toBe('');
  });

  it('takes nothing a batch could not carry or the route does not have', () => {
    // A NUL would fail the whole batch's statement (PostgreSQL's text cannot hold one).
    expect(readAlongKey(along, request({ params: { id: 'rev_\u0000' } }))).toBeUndefined();
    expect(readAlongKey(along, request({ params: { other: 'rev_1' } }))).toBeUndefined();
    expect(readAlongKey(along, request({ params: { id: 7 } }))).toBeUndefined();
    expect(readAlongKey(along, request({}))).toBeUndefined();
  });
});

describe('readAlongFor', () => {
  it('answers the row, or its absence, only for the read and key that ran', () => {
    const found = request({ readAlong: { along, key: 'rev_1', row: { name: 'a' } } });
    expect(readAlongFor(found, along, 'rev_1')).toEqual({ row: { name: 'a' } });
    expect(readAlongFor(found, along, 'rev_2')).toBeUndefined();
    expect(readAlongFor(found, other, 'rev_1')).toBeUndefined();
    const missing = request({ readAlong: { along, key: 'rev_1', row: undefined } });
    expect(readAlongFor(missing, along, 'rev_1')).toEqual({ row: undefined });
    expect(readAlongFor(request({ readAlong: undefined }), along, 'rev_1')).toBeUndefined();
  });
});
