import { readFileSync } from 'node:fs';

/** A golden diff, byte for byte (CRLF lines included). */
export function readFixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/diffs/${name}`, import.meta.url), 'utf8');
}
