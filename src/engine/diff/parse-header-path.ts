import { unquoteGitPath } from './unquote-git-path.js';

/**
 * The path of a `--- a/x`, `+++ b/x`, `rename from x` or `copy to x` header value: quoted or
 * not, `null` for `/dev/null`. Git ends an unquoted name holding a space with a tab, and plain
 * `diff -u` puts a timestamp after a tab, so a tab ends the name. `prefix` (`a/` or `b/`) is
 * removed when present.
 */
export function parseHeaderPath(value: string, prefix = ''): string | null {
  const clean = value.endsWith('\r') ? value.slice(0, -1) : value;
  const quoted = unquoteGitPath(clean);
  const tab = clean.indexOf('\t');
  const name = quoted ? quoted.value : tab >= 0 ? clean.slice(0, tab) : clean;
  if (name === '/dev/null') return null;
  return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}
