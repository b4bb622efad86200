import pg from 'pg';

// node-postgres's own parser (postgres-date), for every form the fast path leaves alone.
const parseAnyTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const two = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);
const SHAPE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;

/**
 * A timestamptz as PostgreSQL prints it in its default ISO style ("2026-11-22 10:30:00.123+00"),
 * read by position; anything else (BC dates, infinity, second offsets, years before 100) goes to
 * node-postgres's parser, whose result this one matches. Every row a request reads carries a
 * few of these, and the general parser was a visible part of a request's CPU.
 */
export function parseTimestamptz(text: string): Date {
  if (!SHAPE.test(text) || (text.charCodeAt(0) === 48 && text.charCodeAt(1) === 48)) return parseAnyTimestamptz(text);
  const year = two(text, 0) * 100 + two(text, 2);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    // Milliseconds: the first three fraction digits, truncated as Date truncates.
    let scale = 100;
    for (at += 1; text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57; at += 1) {
      ms += digit(text, at) * scale;
      scale /= 10;
    }
    ms = Math.trunc(ms);
  }
  const sign = text.charCodeAt(at) === 45 ? -1 : 1;
  const offsetMinutes = two(text, at + 1) * 60 + (text.length > at + 3 ? two(text, at + 4) : 0);
  const utc = Date.UTC(year, two(text, 5) - 1, two(text, 8), two(text, 11), two(text, 14), two(text, 17), ms);
  return new Date(utc - sign * offsetMinutes * 60_000);
}
