import { describe, expect, it } from 'vitest';
import { javascriptFile } from '../../../src/engine/flow/javascript/javascript-file.js';
import type { Language } from '../../../src/engine/languages.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';

// One search of the tree finds the functions, class fields, imports and requires (javascript-file.ts):
// each grammar names its class fields differently, and each list must keep its own tree order.
const SOURCE = `import { exec as run } from 'child_process';
import * as fs from 'node:fs';
const { spawn } = require('child_process');
class Store {
  static limit = 10;
  name = 'store';
  load(id) { return fs.readFileSync(id); }
}
const utils = { clean(s) { return s.trim(); } };
function outer(req) { return (x) => run(x); }
const cp = require('child_process').execSync;
`;

const read = (language: Language) => javascriptFile(parseSource(language, SOURCE).root());

describe('javascriptFile', () => {
  for (const language of ['javascript', 'typescript'] as const) {
    it(`reads ${language}'s functions, fields, imports and requires`, () => {
      const file = read(language);
      expect(file.functions.map((fn) => [fn.name, fn.line])).toEqual([
        ['load', 7],
        ['clean', 9],
        ['outer', 10],
        ['(function@10)', 10],
      ]);
      expect(Object.fromEntries(file.aliases)).toEqual({
        run: 'child_process.exec',
        fs: 'fs',
        spawn: 'child_process.spawn',
        cp: 'child_process.execSync',
      });
      // Class fields run before each method, as writes to the class (static) or `this`.
      expect(
        file.globals
          .filter((s) => s.k === 'assign' && s.target.k === 'attr')
          .map((s) =>
            s.k === 'assign' && s.target.k === 'attr' && s.target.object.k === 'name'
              ? `${s.target.object.name}.${s.target.name}`
              : '',
          ),
      ).toEqual(['Store.limit', 'this.name']);
    });
  }

  it('reads owners and classes when first asked for, with the same answers', () => {
    const file = read('typescript');
    expect(file.functions.map((fn) => fn.owner)).toEqual(['Store', 'utils', undefined, undefined]);
    expect(file.functions.map((fn) => fn.markers)).toEqual([[], [], [], []]);
    expect(file.classes).toEqual(['Store', 'utils']);
  });
});
