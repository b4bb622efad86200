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

/** Whether any of the written names matches any of the patterns. */
export function matchesAny(patterns: readonly string[], written: readonly string[]): boolean {
  return patterns.some((p) => written.some((w) => matchesName(p, w)));
}
