import { describe, expect, it } from 'vitest';
import { COMPLEXITY_KINDS } from '../../../src/engine/complexity/complexity-kinds.js';
import { functionComplexities, touchedFunctions } from '../../../src/engine/complexity/index.js';
import type { Language } from '../../../src/engine/languages.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';

function complexities(language: Language, source: string) {
  return functionComplexities(parseSource(language, source).root(), language).map((f) => [f.name, f.complexity]);
}

describe('functionComplexities', () => {
  it('JavaScript: every decision kind, nested functions counted apart', () => {
    const source = `
function f(a, b) {
  if (a) {} else if (b) {} else {}          // +2
  for (let i = 0; i < 3; i++) {}            // +1
  for (const x of b) {}                     // +1
  for (const k in a) {}                     // +1
  while (a) {}                              // +1
  do {} while (b);                          // +1
  switch (a) { case 1: break; case 2: break; default: }   // +2
  try {} catch (e) {}                       // +1
  const t = a ? 1 : 2;                      // +1
  const u = (a && b) || (a ?? b);           // +3 (1 + 14 = 15)
  const g = (x) => (x ? 1 : 2);             // own function
  return t + u + g(1);
}
const h = function () { return 1; };
class C { m(x) { return x || 0; } }
`;
    expect(complexities('javascript', source)).toEqual([
      ['f', 15],
      ['g', 2],
      ['h', 1],
      ['m', 2],
    ]);
  });

  it('TypeScript and TSX parse with the same kinds', () => {
    const source = 'export function pick(a: number | undefined): number {\n  return a ?? (a! > 1 ? 1 : 0);\n}\n';
    expect(complexities('typescript', source)).toEqual([['pick', 3]]);
    expect(complexities('tsx', 'const C = ({ on }: P) => (on ? <b /> : <i />);')).toEqual([['C', 2]]);
  });

  it('Python', () => {
    const source = `
def f(a, b):
    if a:            # +1
        pass
    elif b:          # +1
        pass
    else:
        pass
    for x in b:      # +1
        pass
    while a:         # +1
        break
    try:
        pass
    except ValueError:   # +1
        pass
    except KeyError:     # +1
        pass
    y = 1 if a else 2    # +1
    z = a and b or a     # +2
    w = [i for i in b if i]   # +2
    return lambda q: q or y   # +1 (the lambda's 'or' counts here; 1 + 12 = 13)

class C:
    def m(self):
        return 1
`;
    expect(complexities('python', source)).toEqual([
      ['f', 13],
      ['m', 1],
    ]);
  });

  it('Go', () => {
    const source = `package main

func f(a int, b bool) int {
	if a > 0 && b {          // +2
		return 1
	} else if a < 0 || !b {  // +2
		return 2
	}
	for i := 0; i < a; i++ { // +1
	}
	for range []int{1} {     // +1
	}
	switch a {
	case 1:                  // +1
	case 2, 3:               // +1
	default:
	}
	g := func() int { if b { return 1 }; return 0 }
	return g()
}

func (r *R) M() {}
`;
    expect(complexities('go', source)).toEqual([
      ['f', 9],
      ['g', 2],
      ['M', 1],
    ]);
  });

  it('Java', () => {
    const source = `
class C {
  C() {}
  int f(int a, boolean b) {
    if (a > 0 && b) { return 1; } else if (b) { return 2; }   // +3
    for (int i = 0; i < a; i++) {}                            // +1
    for (int x : new int[] {1}) {}                            // +1
    while (b) { b = false; }                                  // +1
    do { a--; } while (a > 0 || b);                           // +2
    switch (a) { case 1: break; case 2: break; default: break; }   // +2
    try { a++; } catch (RuntimeException e) {} catch (Exception e) {}   // +2
    Runnable r = () -> { if (b) {} };
    return b ? a : 0;                                         // +1
  }
}
`;
    expect(complexities('java', source)).toEqual([
      ['C', 1],
      ['f', 14],
      ['r', 2],
    ]);
  });

  it('Ruby', () => {
    const source = `
def f(a, b)
  if a            # +1
    1
  elsif b         # +1
    2
  end
  x = 1 if a      # +1
  y = 2 unless b  # +1
  while a         # +1
    a = false
  end
  until b         # +1
    b = true
  end
  case a
  when 1 then 2   # +1
  when 3 then 4   # +1
  end
  begin
    risky
  rescue StandardError   # +1
    nil
  end
  t = a ? 1 : 2   # +1
  z = a && b || a # +2
  [1].each { |q| q if q }   # +1 (blocks count for the method; 1 + 13 = 14)
end

class C
  def self.s; end
end
`;
    expect(complexities('ruby', source)).toEqual([
      ['f', 14],
      ['s', 1],
    ]);
  });

  it('returns nothing for code without functions and tolerates broken code', () => {
    expect(complexities('javascript', 'const a = b ? 1 : 2;')).toEqual([]);
    expect(complexities('javascript', 'function f(a) {\n  if (a) { return 1; }\n  const x = ;\n}')).toEqual([['f', 2]]);
  });
});

describe('the complexity query', () => {
  // One walk finds functions and decisions together and tells them apart by kind.
  it.each(Object.entries(COMPLEXITY_KINDS))('%s: no kind is both a function and a decision', (_language, kinds) => {
    const decisions = [...kinds.decisions, ...(kinds.logical ? [kinds.logical.kind] : [])];
    expect(kinds.functions.filter((kind) => decisions.includes(kind))).toEqual([]);
  });

  it('counts a decision once when it holds a nested function (tree order, then position)', () => {
    const source = 'function f(a) {\n  return a ? () => (a || 1) : function g() { return a && 2; };\n}\n';
    expect(complexities('javascript', source)).toEqual([
      ['f', 2],
      ['<anonymous>', 2],
      ['g', 2],
    ]);
  });
});

describe('touchedFunctions', () => {
  const list = [
    { name: 'a', startLine: 1, endLine: 5, complexity: 1 },
    { name: 'b', startLine: 7, endLine: 9, complexity: 3 },
    { name: 'c', startLine: 11, endLine: 20, complexity: 2 },
  ];

  it('keeps the functions with an added line inside', () => {
    expect(touchedFunctions(list, new Set([6, 9, 10])).map((f) => f.name)).toEqual(['b']);
    expect(touchedFunctions(list, new Set([1, 20])).map((f) => f.name)).toEqual(['a', 'c']);
  });

  it('keeps none without added lines', () => {
    expect(touchedFunctions(list, new Set())).toEqual([]);
    expect(touchedFunctions(list, new Set([6, 10, 21]))).toEqual([]);
  });
});
