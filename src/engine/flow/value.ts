import type { Constant } from './ir.js';

/** Where a tainted value came from: the source's line and what it reads ('the query string'). */
export interface Taint {
  line: number;
  description: string;
  /** The variable the source was first stored in, for the comment. */
  variable?: string | undefined;
  /** CWEs a sanitizer on the way made this value safe for (an HTML escape is no SQL escape). */
  cleared?: ReadonlySet<number> | undefined;
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
  /** For a parsed URL, the variable it was parsed from: a check of its host clears that variable. */
  parsedFrom?: string | undefined;
  /** The constant text a string built by concatenation starts with (a URL's scheme and host). */
  prefix?: string | undefined;
  /** Constant keyword arguments of the constructor that made it (XML parser flags). */
  props?: Map<string, Value> | undefined;
  /**
   * Built only from this file's constants by operations without input (concatenation, formatting,
   * a branch between constants, `base64`/`str` transforms), though not folded to one constant.
   */
  fixed?: boolean | undefined;
}

/** Whether nothing from outside the code can be in the value: a constant, or built only from constants. */
export function isFixed(value: Value | undefined): boolean {
  if (!value || taintOf(value)) return false;
  if (value.known || value.fixed) return true;
  return value.items !== undefined && value.keys === undefined && value.items.every(isFixed);
}

/** What an operation on these operands gives when it is not folded and carries no taint. */
export const fixedOrUnknown = (operands: (Value | undefined)[]): Value =>
  operands.length > 0 && operands.every(isFixed) ? { fixed: true } : UNKNOWN;

export const UNKNOWN: Value = {};

export const constant = (value: Constant): Value => ({ constant: value, known: true });

export const tainted = (taint: Taint | undefined): Value => (taint ? { taint } : {});

/** The taint of a value and everything it contains; the first found wins (the earliest source). */
export function taintOf(value: Value | undefined): Taint | undefined {
  if (!value) return undefined;
  if (value.taint) return value.taint;
  if (value.rest) return value.rest;
  for (const item of value.items ?? []) {
    const t = taintOf(item);
    if (t) return t;
  }
  for (const item of value.keys?.values() ?? []) {
    const t = taintOf(item);
    if (t) return t;
  }
  return undefined;
}

/** The first taint among several values (an operator's operands, a call's arguments). */
export function anyTaint(values: (Value | undefined)[]): Taint | undefined {
  for (const v of values) {
    const t = taintOf(v);
    if (t) return t;
  }
  return undefined;
}

/** A taint that survives a sink of this CWE (not cleared by a sanitizer for it). */
export function taintFor(value: Value | undefined, cwe: number): Taint | undefined {
  if (!value) return undefined;
  const own = [value.taint, value.rest].find((t) => t && !t.cleared?.has(cwe));
  if (own) return own;
  for (const item of [...(value.items ?? []), ...(value.keys?.values() ?? [])]) {
    const t = taintFor(item, cwe);
    if (t) return t;
  }
  return undefined;
}

/** The taint with these CWEs added to its cleared set. */
export function clear(taint: Taint | undefined, cwes: readonly number[] | undefined): Taint | undefined {
  if (!taint || !cwes) return undefined;
  return { ...taint, cleared: new Set([...(taint.cleared ?? []), ...cwes]) };
}

function mergeTaint(a: Taint | undefined, b: Taint | undefined): Taint | undefined {
  if (!a || !b) return a ?? b;
  // A value safe for a CWE on one path only is not safe for it.
  const cleared = a.cleared && b.cleared ? new Set([...a.cleared].filter((c) => b.cleared?.has(c))) : undefined;
  return { ...a, cleared: cleared && cleared.size > 0 ? cleared : undefined };
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
    fixed: (isFixed(a) && isFixed(b)) || undefined,
  };
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
