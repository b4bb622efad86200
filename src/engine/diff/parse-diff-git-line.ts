import { unquoteGitPath } from './unquote-git-path.js';

/**
 * The two paths of `diff --git a/x b/y`, without their `a/` and `b/` prefixes. Unquoted paths
 * with spaces are ambiguous here, so the usual case (same path on both sides) is found by
 * halving, and otherwise the first ` b/` splits. The `---`/`+++` and `rename` headers, when
 * present, are authoritative; this line only names binary and mode-only changes.
 */
export function parseDiffGitLine(line: string): { oldPath: string; newPath: string } | undefined {
  const rest = line.slice('diff --git '.length);
  const pair = splitPair(rest);
  if (!pair) return undefined;
  return { oldPath: stripPrefix(pair[0], 'a/'), newPath: stripPrefix(pair[1], 'b/') };
}

function splitPair(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const first = unquoteGitPath(rest);
    if (first?.rest[0] !== ' ') return undefined;
    const tail = first.rest.slice(1);
    const second = unquoteGitPath(tail);
    return [first.value, second ? second.value : tail];
  }
  if (rest.endsWith('"')) {
    const at = rest.lastIndexOf(' "');
    const second = at >= 0 ? unquoteGitPath(rest.slice(at + 1)) : undefined;
    if (second) return [rest.slice(0, at), second.value];
  }
  const mid = (rest.length - 1) / 2;
  if (Number.isInteger(mid) && rest[mid] === ' ' && rest.slice(2, mid) === rest.slice(mid + 3)) {
    return [rest.slice(0, mid), rest.slice(mid + 1)];
  }
  const at = rest.indexOf(' b/');
  return at >= 0 ? [rest.slice(0, at), rest.slice(at + 1)] : undefined;
}

function stripPrefix(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
