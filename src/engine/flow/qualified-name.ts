/**
 * Whether a name written in code matches a spec's name. `Cipher.getInstance` matches
 * `javax.crypto.Cipher.getInstance`; `new File` matches `new java.io.File`; `*.executeQuery`
 * matches any receiver. A one-segment function name (`open`, `eval`) matches only itself, so
 * `os.open` is not the builtin `open`.
 */
export function matchesName(pattern: string, written: string): boolean {
  const isNew = pattern.startsWith('new ');
  if (isNew !== written.startsWith('new ')) return false;
  const p = (isNew ? pattern.slice(4) : pattern).split('.');
  const w = (isNew ? written.slice(4) : written).split('.');
  if (p.length > w.length) return false;
  if (p.length === 1 && w.length > 1 && !isNew) return false;
  const offset = w.length - p.length;
  return p.every((seg, i) => seg === '*' || seg === w[offset + i]);
}

/** The part of a name every match shares: its last segment (and whether it is a constructor). */
function keyOf(name: string): string {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return name.startsWith('new ') && name.includes('.') ? `new ${last}` : last;
}

// Specs are constants: each list of patterns is indexed once, by last segment, on first use.
const indexes = new WeakMap<readonly string[], Map<string, string[]>>();

function indexFor(patterns: readonly string[]): Map<string, string[]> {
  let index = indexes.get(patterns);
  if (!index) {
    index = new Map();
    for (const p of patterns) index.set(keyOf(p), [...(index.get(keyOf(p)) ?? []), p]);
    indexes.set(patterns, index);
  }
  return index;
}

// A call's names are tried against every list of the spec in turn: their keys are kept for it.
let lastWritten: readonly string[] = [];
let lastKeys: string[] = [];

/** Whether any of the written names matches any of the patterns. */
export function matchesAny(patterns: readonly string[], written: readonly string[]): boolean {
  if (written !== lastWritten) {
    lastWritten = written;
    lastKeys = written.map(keyOf);
  }
  const index = indexFor(patterns);
  for (let i = 0; i < written.length; i++) {
    const candidates = index.get(lastKeys[i] ?? '');
    if (candidates?.some((p) => matchesName(p, written[i] ?? ''))) return true;
  }
  return false;
}

const keyLists = new WeakMap<Readonly<Record<string, string>>, string[]>();

/** The value of the first pattern in a name-keyed table that any written name matches. */
export function lookup(table: Readonly<Record<string, string>>, written: readonly string[]): string | undefined {
  let keys = keyLists.get(table);
  if (!keys) {
    keys = Object.keys(table);
    keyLists.set(table, keys);
  }
  if (!matchesAny(keys, written)) return undefined;
  const key = keys.find((k) => written.some((w) => matchesName(k, w)));
  return key === undefined ? undefined : table[key];
}
