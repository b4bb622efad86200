import { afterEach, describe, expect, it } from 'vitest';
import { type CompileVerdicts, compileKey, useCompileVerdicts } from '../../../src/engine/rules/compile-verdicts.js';
import { RULES } from '../../../src/engine/rules/packs/index.js';
import { ruleLibrary } from '../../../src/engine/rules/rule-library.js';

/** A store that keeps what it is told, or answers `answer` for every key when given one. */
function store(answer?: boolean): CompileVerdicts & { sets: Map<string, boolean> } {
  const sets = new Map<string, boolean>();
  return { sets, get: (key) => answer ?? sets.get(key), set: (key, ok) => void sets.set(key, ok) };
}

const modes = (language: 'go' | 'ruby') =>
  // A copy of the list: libraries are kept per list, and this one must be built now.
  [...ruleLibrary([...RULES], language, true).plans.values()].map((plan) => plan.mode);

afterEach(() => useCompileVerdicts(undefined));

describe('compile verdicts kept outside the engine', () => {
  it('records whether each query compiles while a library is built', () => {
    const verdicts = store();
    useCompileVerdicts(verdicts);
    const built = modes('go');
    expect(built.filter((m) => m === 'combined').length).toBeGreaterThan(10);
    // Every rule's query and every combined body was asked once: more verdicts than Go rules.
    expect(verdicts.sets.size).toBeGreaterThanOrEqual(built.length);
    expect([...verdicts.sets.values()]).toContain(true);
  });

  it('answers from the store instead of compiling: a store saying no leaves every rule unsearched', () => {
    useCompileVerdicts(store(false));
    const built = modes('ruby');
    expect(built.length).toBeGreaterThan(10);
    expect(new Set(built)).toEqual(new Set(['never']));
  });

  it('keys by language and query text alone', () => {
    expect(compileKey('go', '{"rule":{"kind":"call_expression"}}')).toBe(
      compileKey('go', '{"rule":{"kind":"call_expression"}}'),
    );
    expect(compileKey('go', 'q')).not.toBe(compileKey('ruby', 'q'));
    expect(compileKey('go', 'q')).toMatch(/^[0-9a-f]{32}$/);
  });
});
