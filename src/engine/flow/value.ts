import type { Constant } from './ir.js';

/** Where a tainted value came from: the source's line and what it reads ('the query string'). */
export interface Taint {
  line: number;
  description: string;
  /** The variable the source was first stored in, for the comment. */
  variable?: string | undefined;
  /** CWEs a sanitizer on the way made this value safe for (an HTML escape is no SQL escape). */
  cleared?: ReadonlySet<number> | undefined;
  /**
   * For a scoped source (flow-spec.ts `ScopedSpec`): the only CWEs this value matters for (a
   * predictable random number feeds 330 and 614, never SQL). Absent for untrusted input.
   */
  feeds?: readonly number[] | undefined;
  /**
   * A taint of another kind the same value carries (`userId + Math.random()` is both request input
   * and predictable): each kind reaches its own sinks. At most one taint of each kind is kept.
   */
  also?: Taint | undefined;
}

/**
 * The analysis' abstract value. A scalar is tainted, a known constant, or neither. A container
 * keeps its elements where their position is known (`items` for sequences, `keys` for maps), and
 * `rest` for what was written at a position the analysis could not decide.
 */
export interface Value {
  taint?: Taint | undefined;
  constant?: Constant | undefined;
  /** True when `constant` holds a known value (null is a value too). */
  known?: boolean | undefined;
  items?: Value[] | undefined;
  keys?: Map<string, Value> | undefined;
  rest?: Taint | undefined;
  /** The static or constructed type, when known: picks sinks and sources by receiver. */
  type?: string | undefined;
  /** Passed through a path normaliser (realpath, getCanonicalPath): a prefix check then clears it. */
  normalized?: boolean | undefined;
  /**
   * What checks found of a redirect target's start (guards.ts): it starts with `/`, and not with
   * `//` nor `/\` (nor holds a backslash). All three make it a path on this site (CWE 601 cleared).
   */
  local?: Readonly<Partial<Record<LocalMark, true>>> | undefined;
  /** For a parsed URL, the variable it was parsed from: a check of its host clears that variable. */
  parsedFrom?: string | undefined;
  /** The constant text a string built by concatenation starts with (a URL's scheme and host). */
  prefix?: string | undefined;
  /**
   * Constant keyword arguments of the constructor that made it (XML parser flags), and properties
   * its setters recorded (a cookie's `secure`, see flow-spec.ts `propSetters`).
   */
  props?: Map<string, Value> | undefined;
  /** For a property a setter recorded, the setter's line: the comment names it. */
  setAt?: number | undefined;
  /**
   * Nothing from outside can shape it, though it is not folded to one constant: built only from
   * this file's constants by operations without input (concatenation, formatting, a branch between
   * constants, `base64`/`str` transforms), a number conversion, or a value an allow-list check
   * found among the code's own.
   */
  fixed?: boolean | undefined;
  /**
   * The CWEs a sanitizer made it safe for, whatever went in (`shlex.quote(x)`: 78), and text built
   * only of such values and fixed ones. A sink of one of them reached only by such values proves
   * a pattern rule's match there wrong, as a fixed value does.
   */
  safeFor?: ReadonlySet<number> | undefined;
}

export type LocalMark = 'slash' | 'noAuthority' | 'noBackslash';

/** Whether nothing from outside the code can shape the value (see `Value.fixed`). */
export function isFixed(value: Value | undefined): boolean {
  if (!value || taintOf(value)) return false;
  if (value.known || value.fixed) return true;
  // An empty sequence may be one whose layout two paths lost (`merge`): nothing is known of it.
  return value.items !== undefined && value.items.length > 0 && value.keys === undefined && value.items.every(isFixed);
}

/** Whether nothing outside the code can shape the value in a way a sink of this CWE minds. */
export function isSafeFor(value: Value | undefined, cwe: number): boolean {
  return isFixed(value) || (value?.safeFor?.has(cwe) ?? false);
}

/** What text built of these operands is safe for: what each is, a fixed one counting for every CWE. */
export function safeForAll(operands: (Value | undefined)[]): ReadonlySet<number> | undefined {
  let out: Set<number> | undefined;
  for (const operand of operands) {
    if (isFixed(operand)) continue;
    const own = operand?.safeFor;
    if (!own) return undefined;
    out = out ? new Set([...out].filter((cwe) => own.has(cwe))) : new Set(own);
  }
  return out && out.size > 0 ? out : undefined;
}

/** What an operation on these operands gives when it is not folded and carries no taint. */
export function fixedOrUnknown(operands: (Value | undefined)[]): Value {
  if (operands.length > 0 && operands.every(isFixed)) return { fixed: true };
  const safeFor = safeForAll(operands);
  return safeFor ? { safeFor } : UNKNOWN;
}

export const UNKNOWN: Value = {};

export const constant = (value: Constant): Value => ({ constant: value, known: true });

export const tainted = (taint: Taint | undefined): Value => (taint ? { taint } : {});

/** The kinds a taint stands for, each on its own: itself, then what it carries in `also`. */
export function kindsOf(taint: Taint | undefined): Taint[] {
  const out: Taint[] = [];
  for (let t = taint; t; t = t.also) out.push(t.also ? { ...t, also: undefined } : t);
  return out;
}

const kindKey = (t: Taint): string => (t.feeds ? t.feeds.join(',') : '');

/** One taint carrying these kinds, the first of each kind kept (the earliest source). */
function chain(kinds: Taint[]): Taint | undefined {
  const seen = new Set<string>();
  const kept = kinds.filter((t) => {
    const key = kindKey(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return kept.reduceRight<Taint | undefined>((also, t) => ({ ...t, also }), undefined);
}

/** Two taints as one: the first's kinds, then those of the second's it lacks. */
export function join(a: Taint | undefined, b: Taint | undefined): Taint | undefined {
  if (!a || !b) return a ?? b;
  // The common case, one kind on both sides: the first wins as it always has.
  if (!a.also && !b.also && kindKey(a) === kindKey(b)) return a;
  return chain([...kindsOf(a), ...kindsOf(b)]);
}

/** The taint with this variable named on each kind that has none yet (the comment names it). */
export function named(taint: Taint | undefined, variable: string): Taint | undefined {
  const kinds = kindsOf(taint);
  if (kinds.every((t) => t.variable !== undefined)) return taint;
  return chain(kinds.map((t) => (t.variable === undefined ? { ...t, variable } : t)));
}

/** The taint of a value and everything it contains; of each kind, the first found wins (the earliest source). */
export function taintOf(value: Value | undefined): Taint | undefined {
  if (!value) return undefined;
  let out = join(value.taint, value.rest);
  for (const item of value.items ?? []) out = join(out, taintOf(item));
  for (const item of value.keys?.values() ?? []) out = join(out, taintOf(item));
  return out;
}

/** The taint among several values (an operator's operands, a call's arguments), of each kind the first. */
export function anyTaint(values: (Value | undefined)[]): Taint | undefined {
  let out: Taint | undefined;
  for (const v of values) out = join(out, taintOf(v));
  return out;
}

/**
 * Whether a taint of this kind reaches a sink of this CWE: untrusted input every sink but the
 * scoped ones (`scoped` true), a scoped source only the sinks of the CWEs it feeds.
 */
const reaches = (t: Taint, cwe: number, scoped: boolean): boolean =>
  t.feeds ? t.feeds.includes(cwe) : !scoped && !t.cleared?.has(cwe);

/** A taint that reaches a sink of this CWE (of a kind it concerns, not cleared by a sanitizer for it). */
export function taintFor(value: Value | undefined, cwe: number, scoped = false): Taint | undefined {
  if (!value) return undefined;
  for (const own of [value.taint, value.rest]) {
    const hit = kindsOf(own).find((t) => reaches(t, cwe, scoped));
    if (hit) return hit;
  }
  for (const item of [...(value.items ?? []), ...(value.keys?.values() ?? [])]) {
    const t = taintFor(item, cwe, scoped);
    if (t) return t;
  }
  return undefined;
}

/**
 * The taint with these CWEs added to the cleared set of its untrusted-input kind; all CWEs (that
 * kind dropped) when `cwes` is undefined. A scoped kind passes: no escaping or conversion makes a
 * predictable number unpredictable, or a secret less secret.
 */
export function clear(taint: Taint | undefined, cwes: readonly number[] | undefined): Taint | undefined {
  if (!taint) return undefined;
  return chain(
    kindsOf(taint).flatMap((t) => {
      if (t.feeds) return [t];
      return cwes ? [{ ...t, cleared: new Set([...(t.cleared ?? []), ...cwes]) }] : [];
    }),
  );
}

function mergeTaint(a: Taint | undefined, b: Taint | undefined): Taint | undefined {
  if (!a || !b) return a ?? b;
  if (a.also || b.also || kindKey(a) !== kindKey(b)) {
    const bs = kindsOf(b);
    const merged = kindsOf(a).map(
      (t) =>
        mergeTaint(
          t,
          bs.find((u) => kindKey(u) === kindKey(t)),
        ) ?? t,
    );
    return chain([...merged, ...bs]);
  }
  // A value safe for a CWE on one path only is not safe for it.
  const cleared = a.cleared && b.cleared ? new Set([...a.cleared].filter((c) => b.cleared?.has(c))) : undefined;
  return { ...a, cleared: cleared && cleared.size > 0 ? cleared : undefined };
}

/**
 * What both paths' checks found of a redirect target's start; a path with no input (the
 * fallback `'/'` of `ok ? next : '/'`) takes nothing away.
 */
function localOfBoth(a: Value, b: Value): Value['local'] {
  const input = (v: Value) => v.taint !== undefined || v.rest !== undefined;
  if (!input(a)) return b.local;
  if (!input(b)) return a.local;
  if (!a.local || !b.local) return undefined;
  const both = Object.fromEntries(
    Object.keys(a.local)
      .filter((k) => b.local?.[k as LocalMark])
      .map((k) => [k, true]),
  );
  return Object.keys(both).length > 0 ? both : undefined;
}

/** The value after two paths meet: tainted if either is; a constant only if both agree. */
export function merge(a: Value | undefined, b: Value | undefined): Value {
  // A variable assigned on one path only may hold anything on the other.
  if (!a || !b) return { ...(a ?? b ?? {}), known: false, constant: undefined, fixed: undefined };
  if (a === b) return a;
  const out: Value = {
    taint: mergeTaint(a.taint, b.taint),
    type: a.type === b.type ? a.type : (a.type ?? b.type),
    normalized: a.normalized && b.normalized,
    prefix: a.prefix === b.prefix ? a.prefix : undefined,
    parsedFrom: a.parsedFrom === b.parsedFrom ? a.parsedFrom : undefined,
    setAt: a.setAt ?? b.setAt,
    local: localOfBoth(a, b),
    fixed: (isFixed(a) && isFixed(b)) || undefined,
    safeFor: safeForAll([a, b]),
  };
  // A property set on one path only is still set, to a value not known (`if (https) c.setSecure(true)`).
  if (a.props || b.props) {
    out.props = new Map();
    for (const key of new Set([...(a.props?.keys() ?? []), ...(b.props?.keys() ?? [])]))
      out.props.set(key, merge(a.props?.get(key), b.props?.get(key)));
  }
  if (a.known && b.known && a.constant === b.constant) {
    out.known = true;
    out.constant = a.constant;
  }
  if (a.items && b.items && a.items.length === b.items.length) {
    out.items = a.items.map((item, i) => merge(item, b.items?.[i]));
    out.rest = mergeTaint(a.rest, b.rest);
  } else if (a.items || b.items) {
    // Layouts differ: positions are no longer known, only that some element may be tainted.
    out.rest = mergeTaint(
      mergeTaint(a.rest, b.rest),
      mergeTaint(taintOf({ items: a.items }), taintOf({ items: b.items })),
    );
    out.items = a.items && b.items ? [] : undefined;
  } else out.rest = mergeTaint(a.rest, b.rest);
  if (a.keys || b.keys) {
    out.keys = new Map();
    for (const key of new Set([...(a.keys?.keys() ?? []), ...(b.keys?.keys() ?? [])])) {
      // A key written on one path only may be absent: then a read of it falls back to `rest`.
      out.keys.set(key, merge(a.keys?.get(key) ?? { taint: a.rest }, b.keys?.get(key) ?? { taint: b.rest }));
    }
  }
  return out;
}

/** The constant text a value starts with: all of it when known, else what concatenation kept. */
export const prefixOf = (value: Value): string | undefined =>
  value.known && typeof value.constant === 'string' ? value.constant : value.prefix;

/** A map key or list index as the analysis keys it: only constants are keys. */
export function keyOf(value: Value): string | undefined {
  return value.known && value.constant !== null ? String(value.constant) : undefined;
}
