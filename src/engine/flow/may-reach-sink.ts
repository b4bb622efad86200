import { MAX_CALL_DEPTH } from './context.js';
import { namePattern } from './evaluate-call.js';
import type { FlowSpec, RouteSpec } from './flow-spec.js';
import type { FileIR, FunctionIR } from './ir.js';
import { matchesAny } from './qualified-name.js';

/**
 * How the spec's sinks show in source text. A sink matches a call by its name's last segment
 * (qualified-name.ts), which the adapters take from the text: so the text of a call that can
 * match holds that segment's words. `patterns`: sinks matched by a regular expression on the
 * name instead, tried on each identifier. `keys`: the last segments, to tell which imported
 * names stand for a sink (`from os import system as run`: `run(...)` names no sink itself).
 */
interface SinkText {
  words: ReadonlySet<string>;
  /** Tried on the whole text: the spellings of names without words. */
  spelled: RegExp[];
  patterns: RegExp[];
  keys: Set<string>;
}

const ALWAYS = /(?:)/;
/** By spec, then by spellings (both constants). */
const texts = new WeakMap<FlowSpec, WeakMap<object, SinkText>>();
const NO_SPELLINGS: Readonly<Record<string, RegExp>> = {};

const lastSegment = (name: string): string => {
  const bare = name.startsWith('new ') ? name.slice(4) : name;
  return bare.slice(bare.lastIndexOf('.') + 1);
};

const WORD = /\w+/g;

/** Whether the text has one of the words, whole (a set lookup per word: far cheaper than one regex of hundreds). */
function hasWord(text: string, words: ReadonlySet<string>): boolean {
  if (words.size === 0) return false;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    if (words.has(m[0])) {
      WORD.lastIndex = 0;
      return true;
    }
  }
  return false;
}

const wordsOf = (names: Iterable<string>): string[] => [...names].flatMap((name) => name.match(/\w+/g) ?? []);

/**
 * `spellings`: how the adapter's own call names, which are no words (`` ` `` for a Ruby
 * subshell), are written in source; a name without words or spelling may be anywhere.
 */
function sinkText(spec: FlowSpec, spellings: Readonly<Record<string, RegExp>>): SinkText {
  let bySpellings = texts.get(spec);
  if (!bySpellings) {
    bySpellings = new WeakMap();
    texts.set(spec, bySpellings);
  }
  let text = bySpellings.get(spellings);
  if (text) return text;
  const sinks = [...spec.sinks, ...(spec.scoped?.sinks ?? [])];
  const assigns = [...spec.assignSinks, ...(spec.scoped?.assignSinks ?? [])];
  const keys = new Set([...sinks.flatMap((s) => s.calls), ...assigns.flatMap((s) => s.objects)].map(lastSegment));
  const words = new Set<string>();
  const spelled: RegExp[] = [];
  for (const key of keys) {
    const parts = key.match(/\w+/g);
    if (parts) for (const part of parts) words.add(part);
    else spelled.push(spellings[key] ?? ALWAYS);
  }
  const patterns = [
    ...sinks.flatMap((s) => (s.callPattern ? [namePattern(s.callPattern)] : [])),
    ...assigns.flatMap((s) => (s.objectPattern ? [namePattern(s.objectPattern)] : [])),
  ];
  text = { words, spelled, patterns, keys };
  bySpellings.set(spellings, text);
  return text;
}

/** Identifiers, with a Ruby method's `?`/`!` or a setter's `=` after them when written. */
const IDENTIFIER = /[A-Za-z_$][\w$]*[?!=]?/g;

/** The names a pattern sink may be tried on in the file's functions: each identifier, with and without its suffix. */
function namesIn(file: FileIR): string[] {
  const names = new Set<string>();
  for (const fn of file.functions) {
    for (const w of fn.text.match(IDENTIFIER) ?? []) {
      names.add(w);
      if (/[?!=]$/.test(w)) names.add(w.slice(0, -1));
    }
  }
  return [...names];
}

/**
 * A name a call can reach: the adapters give callbacks, literals and routes names no call
 * has (`(function@12)`, `func@3`, `get /users`), with a space, `@` or `(` in them.
 */
const callable = (name: string): boolean => !/[\s@(]/.test(name);

/** The text hint of a route whose only part is a return sink with one: the route matters only where its hint is. */
export const routeHint = (route: RouteSpec): string | undefined =>
  route.paramsTainted === undefined ? route.returnSink?.textHint : undefined;

/** Whether a route can matter to this function, before its markers are read (a walk of the tree each). */
export const routeMayApply = (route: RouteSpec, fn: FunctionIR): boolean => {
  const hint = routeHint(route);
  return hint === undefined || namePattern(hint).test(fn.text);
};

/** Whether a function is one of the route's: by its markers, or for an unmarked route by having none. */
export const routeApplies = (route: RouteSpec, fn: FunctionIR): boolean =>
  routeMayApply(route, fn) && (route.unmarked ? fn.markers.length === 0 : matchesAny(route.markers, fn.markers));

/**
 * The functions of the file whose run may reach one of the spec's sinks: their text names a
 * sink (or an imported name of one), or is a route whose return is a sink, or calls such a
 * function by name, to the call depth the analysis follows. A function left out records no
 * flow and notes no sink when run: every sink is checked on a call, a write or a route's
 * return, and its name is in the text of the function or of one it calls.
 */
export function mayReachSink(
  spec: FlowSpec,
  file: FileIR,
  spellings: Readonly<Record<string, RegExp>> = NO_SPELLINGS,
): Set<FunctionIR> {
  const text = sinkText(spec, spellings);
  const imported = [...file.aliases].filter(([, full]) => text.keys.has(lastSegment(full))).map(([short]) => short);
  // The identifiers a pattern sink matches, taken from the whole file once, tested as words.
  const patterned = text.patterns.length > 0 ? namesIn(file).filter((w) => text.patterns.some((p) => p.test(w))) : [];
  const extra = [...imported, ...patterned];
  // A name without words (none is) could be written anywhere.
  if (extra.some((name) => !/\w/.test(name))) return new Set(file.functions);
  const words = extra.length > 0 ? new Set([...text.words, ...wordsOf(extra)]) : text.words;
  const own = (fn: FunctionIR): boolean =>
    spec.routes.some((r) => r.returnSink && routeApplies(r, fn)) ||
    hasWord(fn.text, words) ||
    text.spelled.some((re) => re.test(fn.text));
  const reaching = new Set(file.functions.filter(own));
  let added = [...reaching];
  for (let depth = 0; depth < MAX_CALL_DEPTH && added.length > 0; depth++) {
    const targets = added.filter((fn) => callable(fn.name));
    // A name without words: any call may be its (`handlers[i]()` is named '').
    if (targets.some((fn) => !/\w/.test(fn.name))) return new Set(file.functions);
    const calls = new Set(wordsOf(targets.map((fn) => fn.name)));
    added = file.functions.filter((fn) => !reaching.has(fn) && hasWord(fn.text, calls));
    for (const fn of added) reaching.add(fn);
  }
  return reaching;
}

/** Whether this text (a pattern rule's line) may hold one of the spec's sinks: it names one. */
export function mayNameSink(
  spec: FlowSpec,
  text: string,
  spellings: Readonly<Record<string, RegExp>> = NO_SPELLINGS,
): boolean {
  const sinks = sinkText(spec, spellings);
  if (hasWord(text, sinks.words) || sinks.spelled.some((re) => re.test(text))) return true;
  return sinks.patterns.length > 0 && (text.match(IDENTIFIER) ?? []).some((w) => sinks.patterns.some((p) => p.test(w)));
}
