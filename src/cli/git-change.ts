import { execFile } from 'node:child_process';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { splitUnifiedDiff } from '../engine/diff/split-unified-diff.js';
import type { ChangedFile, ChangeSet } from '../engine/types.js';
import { UsageError } from './usage-error.js';

/** Files larger than this keep their counts but carry neither `patch` nor `content` (GitHub omits them too). */
const MAX_TEXT_BYTES = 1024 * 1024;
/** Git's own test for a binary file: a NUL byte in the first 8,000 bytes. */
const BINARY_PROBE_BYTES = 8000;

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs git with an argument array (never a shell) in `cwd`; a failure is an answer, not a throw. */
export function git(args: readonly string[], cwd: string, input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 512 * 1024 * 1024,
        // A read-only look: no index refresh written behind the user's back, no pager, no prompt.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ stdout, stderr, code: 0 });
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'number') return resolve({ stdout, stderr, code });
        if (code === 'ENOENT') return reject(new Error('git is not installed or not on the PATH'));
        reject(error);
      },
    );
    // git may exit without reading its input (EPIPE): the exit code tells what happened.
    child.stdin?.on('error', () => {});
    if (input !== undefined && input !== '') child.stdin?.write(input);
    child.stdin?.end();
  });
}

async function gitOk(args: readonly string[], cwd: string, input?: string): Promise<string> {
  const result = await git(args, cwd, input);
  if (result.code !== 0) {
    throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
  return result.stdout;
}

interface Repository {
  /** The working tree's top directory. */
  root: string;
  /** HEAD's commit; undefined before the first commit. */
  head: string | undefined;
}

/** The repository around `cwd`, in one git call; a UsageError when `cwd` is not inside one. */
async function openRepository(cwd: string): Promise<Repository> {
  const result = await git(['rev-parse', '--show-toplevel', '--verify', '--quiet', 'HEAD^{commit}'], cwd).catch(
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${cwd} does not exist`);
      throw error;
    },
  );
  // Exit 1 with the top directory printed: a repository whose HEAD names no commit yet.
  const [root = '', head = ''] = result.stdout.split('\n').map((line) => line.trim());
  if ((result.code !== 0 && result.code !== 1) || root === '') {
    const reason = result.stderr.trim().split('\n')[0] ?? '';
    throw new UsageError(`${cwd} is not in a git repository${reason ? ` (${reason})` : ''}`);
  }
  return { root, head: result.code === 0 && head !== '' ? head : undefined };
}

/** The commit `ref` names, or undefined. */
async function resolveCommit(root: string, ref: string): Promise<string | undefined> {
  const result = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root);
  const sha = result.stdout.trim();
  return result.code === 0 && sha !== '' ? sha : undefined;
}

/** The branches a default branch is looked for among, in order, after what origin/HEAD points at. */
const DEFAULT_BRANCHES = ['main', 'master', 'origin/main', 'origin/master'];
const refOf = (branch: string): string =>
  branch.startsWith('origin/') ? `refs/remotes/${branch}` : `refs/heads/${branch}`;
const branchOf = (ref: string): string => ref.replace(/^refs\/(?:heads|remotes)\//, '');

/**
 * The branch changes are measured against: what origin/HEAD points at when it is set, else a
 * local main or master, else origin/main or origin/master (a CI checkout without origin/HEAD).
 * One git call lists which of them exist.
 */
async function defaultBranch(root: string): Promise<string | undefined> {
  const listed = await gitOk(
    ['for-each-ref', '--format=%(refname)%09%(symref)', 'refs/remotes/origin/HEAD', ...DEFAULT_BRANCHES.map(refOf)],
    root,
  );
  const refs = new Map(
    listed
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t') as [string, string]),
  );
  const pointed = refs.get('refs/remotes/origin/HEAD');
  if (pointed && (refs.has(pointed) || (await resolveCommit(root, pointed)) !== undefined)) return branchOf(pointed);
  return DEFAULT_BRANCHES.find((branch) => refs.has(refOf(branch)));
}

export interface ReviewBase {
  /** A commit, or the empty tree (a repository without commits, or no branch to compare with). */
  base: string;
  /** For people: what the base is. */
  description: string;
}

/**
 * Decisions §9: the merge base of `ref` (default: the default branch) with HEAD. Without commits,
 * or with no default branch, the base is the empty tree and every file counts as added; when
 * `ref` shares no history with HEAD (say a shallow clone), `ref` itself.
 */
async function reviewBase({ root, head }: Repository, ref?: string): Promise<ReviewBase> {
  if (ref !== undefined) {
    if (ref === '' || ref.startsWith('-')) throw new UsageError(`--base: "${ref}" is not a revision`);
    if ((await resolveCommit(root, ref)) === undefined) {
      throw new UsageError(`--base: "${ref}" is not a commit in this repository`);
    }
  }
  const target = head === undefined ? undefined : (ref ?? (await defaultBranch(root)));
  if (head === undefined || target === undefined) {
    const why = head === undefined ? 'no commits yet' : 'no default branch';
    return { base: await emptyTree(root), description: `the empty tree (${why})` };
  }
  const mergeBase = await git(['merge-base', target, 'HEAD'], root);
  const sha = mergeBase.stdout.trim();
  if (mergeBase.code === 0 && sha !== '') {
    return { base: sha, description: `${target} (merge base ${sha.slice(0, 12)})` };
  }
  const commit = (await resolveCommit(root, target)) as string;
  return { base: commit, description: `${target} (${commit.slice(0, 12)}, no merge base with HEAD)` };
}

/** The empty tree's id in this repository's hash (SHA-1 or SHA-256). */
async function emptyTree(root: string): Promise<string> {
  return (await gitOk(['hash-object', '-t', 'tree', '--stdin'], root, '')).trim();
}

export interface LocalChange {
  root: string;
  base: ReviewBase;
  change: ChangeSet;
}

/**
 * The local change as the engine reads a pull request: committed, staged and unstaged changes to
 * tracked files since the base (`git diff <base>` against the working tree), plus untracked files
 * that are not ignored, as added files. Each file carries its working-tree content when it is text.
 */
export async function readLocalChange(options: { cwd: string; base?: string | undefined }): Promise<LocalChange> {
  const repository = await openRepository(options.cwd);
  const { root } = repository;
  // Untracked files do not depend on the base: listed while the base is found.
  const listing = gitOk(['ls-files', '--others', '--exclude-standard', '-z'], root);
  listing.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const base = await reviewBase(repository, options.base);
  const diff = await gitOk(
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--find-renames',
      '--unified=3',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      base.base,
      '--',
    ],
    root,
  );
  const files: ChangedFile[] = [];
  for (const d of splitUnifiedDiff(diff)) {
    const file: ChangedFile = {
      path: d.path,
      status: d.status,
      additions: d.additions,
      deletions: d.deletions,
      patch: d.binary ? undefined : d.patch,
    };
    if (d.previousPath !== undefined) file.previousPath = d.previousPath;
    if (d.status !== 'removed' && !d.binary) {
      const read = await readText(root, d.path);
      if (read?.large) file.patch = undefined;
      else if (read !== undefined) file.content = read.text;
    }
    files.push(file);
  }
  const untracked = await listing;
  for (const name of untracked.split('\0')) {
    // A nested repository is listed as a directory ("sub/"): not a file of this change.
    if (name === '' || name.endsWith('/')) continue;
    files.push(await untrackedFile(root, name));
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, base, change: { files } };
}

/** A regular file's text (`large` past MAX_TEXT_BYTES), or undefined: binary, a symlink, a directory, unreadable. */
async function readText(root: string, file: string): Promise<{ text: string; large: boolean } | undefined> {
  const full = path.join(root, ...file.split('/'));
  try {
    const info = await lstat(full);
    if (!info.isFile()) return undefined;
    const bytes = await readFile(full);
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return undefined;
    return { text: bytes.toString('utf8'), large: bytes.length > MAX_TEXT_BYTES };
  } catch {
    return undefined;
  }
}

/** An untracked file as git would show it once added: every line an addition. */
async function untrackedFile(root: string, name: string): Promise<ChangedFile> {
  const read = await readText(root, name);
  const file: ChangedFile = { path: name, status: 'added', additions: 0, deletions: 0 };
  if (read === undefined || read.text === '') return file;
  const text = read.text;
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  file.additions = lines.length;
  if (read.large) return file;
  file.content = text;
  const range = lines.length === 1 ? '1' : `1,${lines.length}`;
  const body = lines.map((l) => `+${l}`).join('\n');
  file.patch = `@@ -0,0 +${range} @@\n${body}${endsWithNewline ? '' : '\n\\ No newline at end of file'}`;
  return file;
}
