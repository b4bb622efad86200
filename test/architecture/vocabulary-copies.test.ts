import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FAIL_ON } from '../../src/action/action-inputs.js';
import {
  PLANS as CLIENT_PLANS,
  SEVERITIES as CLIENT_SEVERITIES,
  WEBHOOK_EVENTS as CLIENT_WEBHOOK_EVENTS,
  type Severity as ClientSeverity,
} from '../../src/client/api-types.js';
import { SEVERITIES, type Severity } from '../../src/common/severity.js';
import { type FindingType as DbFindingType, type Severity as DbSeverity, PLANS } from '../../src/db/schema.js';
import { FINDING_TYPES, type FindingType } from '../../src/engine/finding-types.js';
import { WEBHOOK_EVENT_NAMES } from '../../src/webhooks/event-names.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** The values of `check (<column> in ('a', 'b', ...))` in a migration's SQL. */
function checkedValues(sql: string, column: string): string[] {
  const list = new RegExp(`check \\(${column} in \\(([^)]*)\\)\\)`).exec(sql)?.[1];
  if (list === undefined) throw new Error(`no check constraint on ${column}`);
  return list.split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
}

// The engine's lists are the source (engine/severity.ts, engine/finding-types.ts). The client and
// the action may not import the engine (the action's bundle must not carry it), and db/ sits below
// it, so each keeps a copy; these tests fail the moment a copy and the source differ.
describe('copies of the engine severities and finding types', () => {
  it('the client has the same severities in the same order', () => {
    expect(CLIENT_SEVERITIES).toEqual(SEVERITIES);
    expectTypeOf<ClientSeverity>().toEqualTypeOf<Severity>();
  });

  it("the action's fail-on levels are the client's severities, most severe first, then never", () => {
    expect(FAIL_ON).toEqual([...SEVERITIES, 'never']);
  });

  it('the action and the client write the list out once, in the client', () => {
    const copies = ['action', 'client']
      .flatMap((dir) => readdirSync(path.join(SRC, dir)).map((file) => path.join(dir, file)))
      .filter((file) => /'critical',\s*'important'/.test(readFileSync(path.join(SRC, file), 'utf8')));
    expect(copies).toEqual([path.join('client', 'api-types.ts')]);
  });

  it("the database's column types and check constraints hold the same values", () => {
    expectTypeOf<DbSeverity>().toEqualTypeOf<Severity>();
    expectTypeOf<DbFindingType>().toEqualTypeOf<FindingType>();
    const migration = readFileSync(path.join(SRC, 'db/migrations/0003-reviews.ts'), 'utf8');
    expect(checkedValues(migration, 'severity')).toEqual([...SEVERITIES]);
    expect(checkedValues(migration, 'type')).toEqual([...FINDING_TYPES]);
  });
});

// The client may import nothing of the server's either: the dashboard takes these lists from it.
describe("the client's copies of the server's plans and webhook event names", () => {
  it('holds the same plans, in the same order, as the database allows', () => {
    expect(CLIENT_PLANS).toEqual(PLANS);
    const migration = readFileSync(path.join(SRC, 'db/migrations/0001-accounts.ts'), 'utf8');
    expect(checkedValues(migration, 'plan')).toEqual([...PLANS]);
  });

  it('holds the same webhook event names, in the same order', () => {
    expect(CLIENT_WEBHOOK_EVENTS).toEqual(WEBHOOK_EVENT_NAMES);
  });
});
