import type { Analysis, Env } from './context.js';
import { entryOf, isConstructor } from './entry-of.js';
import type { FlowSpec } from './flow-spec.js';
import { run } from './interpret.js';
import type { FileIR, FunctionIR } from './ir.js';
import { isFixed, merge, taintOf, type Value } from './value.js';

/** Whether an environment entry is a field of the instance (`self.x`, `this.x`, Ruby's `@x`). */
export const isField = (spec: FlowSpec, key: string): boolean =>
  (key.startsWith('@') && !key.startsWith('@@')) || spec.selfNames.some((self) => key.startsWith(`${self}.`));

/**
 * The tainted fields each class's constructor leaves in its instance, by class: its other methods
 * start with them; and the constructors run for it. Only constructors that read input (or are
 * given it by convention) are run, here and once: their own flows are recorded as any entry's.
 */
export function constructorFields(
  analysis: Analysis,
  spec: FlowSpec,
  file: FileIR,
  entries: Set<FunctionIR>,
): { fields: Map<string, Env>; ran: Set<FunctionIR> } {
  const out = new Map<string, Env>();
  const ran = new Set<FunctionIR>();
  const requestParams = spec.constructors?.requestParams?.names ?? [];
  for (const fn of file.functions) {
    if (!isConstructor(spec, fn)) continue;
    if (!entries.has(fn) && !fn.params.some((p) => requestParams.includes(p.name))) continue;
    ran.add(fn);
    const { env, frame } = entryOf(spec, fn);
    analysis.stack = [fn];
    // Ruby's last statement is the method's value: a path ends in a return as often as not.
    frame.exits = [];
    const after = run(analysis, new Map([...analysis.globals, ...env]), fn.body, frame);
    const fields: Env = out.get(fn.owner as string) ?? new Map();
    for (const exit of after ? [after, ...frame.exits] : frame.exits) {
      for (const [key, value] of exit) {
        if (!isField(spec, key) || !taintOf(value)) continue;
        const before = fields.get(key);
        fields.set(key, before ? merge(before, value) : value);
      }
    }
    if (fields.size > 0) out.set(fn.owner as string, fields);
  }
  return { fields: out, ran };
}

/**
 * The fields each class's constructors always leave holding the code's own values (a number
 * conversion, a constant: `@account_id = Integer(account_id)`, `self.limit = int(limit)`), and
 * that nothing else in the file writes: every method of the class may take them as fixed. Read
 * only for the classes in `owners` (those around a pattern rule's match to prove).
 */
export function fixedFields(
  analysis: Analysis,
  spec: FlowSpec,
  file: FileIR,
  owners: ReadonlySet<string>,
  text: () => string,
): Map<string, Env> {
  const out = new Map<string, Env>();
  const byClass = new Map<string, FunctionIR[]>();
  for (const fn of file.functions) {
    if (fn.owner === undefined || !owners.has(fn.owner) || !isConstructor(spec, fn)) continue;
    byClass.set(fn.owner, [...(byClass.get(fn.owner) ?? []), fn]);
  }
  for (const [owner, constructors] of byClass) {
    let fixed: Map<string, Value> | undefined;
    for (const fn of constructors) {
      const { env, frame } = entryOf(spec, fn);
      analysis.stack = [fn];
      frame.exits = [];
      const after = run(analysis, new Map([...analysis.globals, ...env]), fn.body, frame);
      for (const exit of after ? [after, ...frame.exits] : frame.exits) {
        const here = new Map([...exit].filter(([key, value]) => isField(spec, key) && isFixed(value)));
        fixed = fixed ? new Map([...fixed].filter(([key]) => here.has(key))) : here;
      }
    }
    // Written again anywhere but in the constructors (or open to writes from outside): not fixed.
    const all = text();
    const inConstructors = constructors.map((fn) => fn.text).join('\n');
    const kept: Env = new Map();
    for (const [key, value] of fixed ?? []) {
      const name = key.slice(key.search(/[A-Za-z_]\w*$/));
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
