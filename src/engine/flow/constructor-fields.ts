import type { Analysis, Env } from './context.js';
import { entryOf, isConstructor } from './entry-of.js';
import type { FlowSpec } from './flow-spec.js';
import { run } from './interpret.js';
import type { FileIR, FunctionIR } from './ir.js';
import { isFixed, merge, taintOf } from './value.js';

/** Whether an environment entry is a field of the instance (`self.x`, `this.x`, Ruby's `@x`). */
export const isField = (spec: FlowSpec, key: string): boolean =>
  (key.startsWith('@') && !key.startsWith('@@')) || spec.selfNames.some((self) => key.startsWith(`${self}.`));

export interface ConstructorFields {
  /** Fields a constructor fills from input, by class: every other method of the class starts with them. */
  tainted: Map<string, Env>;
  /**
   * Fields every constructor of the class leaves holding the code's own values (a number
   * conversion, a constant: `@account_id = Integer(account_id)`, `self.limit = int(limit)`) and
   * nothing else in the file writes, for the classes of `owners`: their methods proved from their
   * start take them as fixed.
   */
  fixed: Map<string, Env>;
  /** The constructors run here, once: their own flows are recorded as any entry's. */
  ran: Set<FunctionIR>;
}

/**
 * What the file's constructors leave in their instances. Run: those that read input (or are given
 * it by convention), and every constructor of the classes in `owners` (whose methods are proved).
 */
export function constructorFields(
  analysis: Analysis,
  spec: FlowSpec,
  file: FileIR,
  entries: Set<FunctionIR>,
  owners: ReadonlySet<string>,
  text: () => string,
): ConstructorFields {
  const tainted = new Map<string, Env>();
  const candidates = new Map<string, Env>();
  const ran = new Set<FunctionIR>();
  const requestParams = spec.constructors?.requestParams?.names ?? [];
  for (const fn of file.functions) {
    if (!isConstructor(spec, fn)) continue;
    const owner = fn.owner as string;
    const proves = owners.has(owner);
    if (!proves && !entries.has(fn) && !fn.params.some((p) => requestParams.includes(p.name))) continue;
    ran.add(fn);
    const { env, frame } = entryOf(spec, fn);
    analysis.stack = [fn];
    // Ruby's last statement is the method's value: a path ends in a return as often as not.
    frame.exits = [];
    const after = run(analysis, new Map([...analysis.globals, ...env]), fn.body, frame);
    const fields: Env = tainted.get(owner) ?? new Map();
    for (const exit of after ? [after, ...frame.exits] : frame.exits) {
      for (const [key, value] of exit) {
        if (!isField(spec, key) || !taintOf(value)) continue;
        const before = fields.get(key);
        fields.set(key, before ? merge(before, value) : value);
      }
      if (!proves) continue;
      // Fixed on every path of every constructor.
      const here = new Map([...exit].filter(([key, value]) => isField(spec, key) && isFixed(value)));
      const so = candidates.get(owner);
      candidates.set(owner, so ? new Map([...so].filter(([key]) => here.has(key))) : here);
    }
    if (fields.size > 0) tainted.set(owner, fields);
  }
  return { tainted, fixed: unwritten(file, candidates, spec, text), ran };
}

/** Of each class's candidate fields, those no line of the file writes outside its constructors. */
function unwritten(file: FileIR, candidates: Map<string, Env>, spec: FlowSpec, text: () => string): Map<string, Env> {
  const out = new Map<string, Env>();
  if (candidates.size === 0) return out;
  const all = text();
  for (const [owner, fields] of candidates) {
    const inConstructors = file.functions
      .filter((fn) => fn.owner === owner && isConstructor(spec, fn))
      .map((fn) => fn.text)
      .join('\n');
    const kept: Env = new Map();
    for (const [key, value] of fields) {
      const name = key.slice(key.search(/[A-Za-z_]\w*$/));
      // An assignment (`@x =`, `self.x +=`), or a writer opened to the outside (`attr_accessor :x`).
      const writes = new RegExp(
        `[@.]${name}\\s*(?:[-+*/|&]|\\|\\||&&)?=(?![=~>])|attr_(?:writer|accessor)\\b[^\\n]*:${name}\\b`,
        'g',
      );
      if ((all.match(writes) ?? []).length === (inConstructors.match(writes) ?? []).length) kept.set(key, value);
    }
    if (kept.size > 0) out.set(owner, kept);
  }
  return out;
}
