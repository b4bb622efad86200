import { afterEach, describe, expect, it } from 'vitest';
import { type LibraryStore, useLibraryStore } from '../../../src/engine/rules/library-store.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import { libraryKey, type PreparedLibrary, ruleLibrary } from '../../../src/engine/rules/rule-library.js';

/** A store that keeps what it is told, answering `answer(key)` first when given. */
function store(answer?: (key: string) => unknown): LibraryStore & { kept: Map<string, PreparedLibrary> } {
  const kept = new Map<string, PreparedLibrary>();
  return { kept, get: (key) => answer?.(key) ?? kept.get(key), set: (key, library) => void kept.set(key, library) };
}

/** A copy of the rule list: libraries are kept per list in the process, and each test must build or load anew. */
const fresh = () => [...RULES];

afterEach(() => useLibraryStore(undefined));

describe('rule libraries kept outside the engine', () => {
  it('hands the store each library it builds, under the key of its rules, language and ASCII flag', () => {
    const libraries = store();
    useLibraryStore(libraries);
    const rules = fresh();
    const built = ruleLibrary(rules, 'go', true);
    expect([...libraries.kept.keys()]).toEqual([libraryKey(rules, 'go', true)]);
    const kept = libraries.kept.get(libraryKey(rules, 'go', true)) as PreparedLibrary;
    expect(kept).toEqual(built.prepared());
    // Round trip through JSON, as a file keeps it: the same plans, utilities and anchors, rule by rule.
    useLibraryStore(store(() => JSON.parse(JSON.stringify(kept))));
    const loaded = ruleLibrary(fresh(), 'go', true);
    expect(loaded.prepared()).toEqual(kept);
    expect(loaded.plans.size).toBeGreaterThan(20);
    expect([...loaded.plans.values()].some((p) => p.mode === 'combined')).toBe(true);
    expect(loaded.anchors.size).toBe(loaded.plans.size);
  });

  it('uses what the store answers instead of preparing the rules', () => {
    const rules = fresh();
    const go = rules.flatMap((rule, i) => (rule.languages.includes('go') ? [i] : []));
    const never: PreparedLibrary = { plans: go.map((i) => [i, { mode: 'never' }]), utils: [], anchors: [] };
    const libraries = store(() => never);
    useLibraryStore(libraries);
    const loaded = ruleLibrary(rules, 'go', true);
    expect(new Set([...loaded.plans.values()].map((p) => p.mode))).toEqual(new Set(['never']));
    expect(loaded.plans.size).toBe(go.length);
    expect(libraries.kept.size).toBe(0);
  });

  it.each([
    ['not an object', 'library'],
    ['a rule index out of range', { plans: [[100_000, { mode: 'never' }]], utils: [], anchors: [] }],
    [
      'a rule twice',
      {
        plans: [
          [0, { mode: 'never' }],
          [0, { mode: 'never' }],
        ],
        utils: [],
        anchors: [],
      },
    ],
    ['an unknown mode', { plans: [[0, { mode: 'sometimes' }]], utils: [], anchors: [] }],
    [
      'a combined plan whose utility is missing',
      { plans: [[0, { mode: 'combined', util: 'r0', prefix: 'R0_', tag: 'TAG0' }]], utils: [], anchors: [] },
    ],
    ['anchors of the wrong shape', { plans: [], utils: [], anchors: [[0, [['text']]]] }],
  ])('prepares the rules again when the store holds %s', (_what, damaged) => {
    const libraries = store(() => damaged);
    useLibraryStore(libraries);
    const rules = fresh();
    const loaded = ruleLibrary(rules, 'ruby', true);
    expect([...loaded.plans.values()].some((p) => p.mode === 'combined')).toBe(true);
    expect(libraries.kept.get(libraryKey(rules, 'ruby', true))).toEqual(loaded.prepared());
  });

  it('keys by the rules as written, the language and the ASCII flag', () => {
    const rules = fresh();
    expect(libraryKey(rules, 'go', true)).toBe(libraryKey(fresh(), 'go', true));
    expect(libraryKey(rules, 'go', true)).toMatch(/^[0-9a-f]{32}$/);
    expect(libraryKey(rules, 'go', false)).not.toBe(libraryKey(rules, 'go', true));
    expect(libraryKey(rules, 'java', true)).not.toBe(libraryKey(rules, 'go', true));
    const changed = rules.map((r, i) => (i === 0 ? { ...r, rule: { kind: 'identifier' } } : r));
    expect(libraryKey(changed, 'go', true)).not.toBe(libraryKey(rules, 'go', true));
  });
});
