/**
 * Helpers shared by the benches that read public repositories (bench/owasp.ts, bench/noise.ts):
 * checking that a checkout is at the commit the bench pins, and giving a file to the engine as a
 * whole new file. The repositories are never committed here: they are fetched at bench time.
 */
import { execFileSync } from 'node:child_process';
import type { ChangedFile } from '../../src/engine/types.js';

/** The commit checked out in `dir`, or undefined when it is not a git work tree. */
export function headCommit(dir: string): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Figures are only comparable between runs on the same commit: a checkout at another commit is
 * refused unless the caller accepts it (`--any-commit`), and then the output says so.
 */
export function checkPin(name: string, dir: string, pin: string, anyCommit: boolean): string {
  const head = headCommit(dir);
  if (head === pin) return head;
  const what = head === undefined ? 'is not a git checkout' : `is at ${head}`;
  const message = `${name}: ${dir} ${what}, the bench pins ${pin}`;
  if (!anyCommit) {
    process.stderr.write(`${message}\n  (git -C ${dir} checkout ${pin}, or pass --any-commit to measure it anyway)\n`);
    process.exit(2);
  }
  process.stderr.write(`warning: ${message}; measuring it anyway (--any-commit)\n`);
  return head ?? 'unknown';
}

/**
 * A file as a pull request that adds it shows it: every line added, the content attached, the
 * patch one hunk of `+` lines (the shape `redline review` gives an untracked file).
 */
export function addedFile(path: string, content: string): ChangedFile {
  if (content === '') return { path, status: 'added', additions: 0, deletions: 0 };
  const lines = content.split('\n');
  const endsWithNewline = content.endsWith('\n');
  if (endsWithNewline) lines.pop();
  const range = lines.length === 1 ? '1' : `1,${lines.length}`;
  const body = lines.map((l) => `+${l}`).join('\n');
  return {
    path,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    content,
    patch: `@@ -0,0 +${range} @@\n${body}${endsWithNewline ? '' : '\n\\ No newline at end of file'}`,
  };
}

/** `--name value` pairs and bare flags from argv; unknown names are the caller's to reject. */
export function readArgs(argv: string[]): { values: Map<string, string[]>; flags: Set<string> } {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    if (next === undefined || next.startsWith('--')) flags.add(arg.slice(2));
    else {
      values.set(arg.slice(2), [...(values.get(arg.slice(2)) ?? []), next]);
      i++;
    }
  }
  return { values, flags };
}
