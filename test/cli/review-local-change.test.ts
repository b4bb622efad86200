import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLocalChange } from '../../src/cli/git-change.js';
import type { TempRepo } from './review-fixtures.js';
import { APP_FEATURE, repo, scenario, useReviewHarness } from './review-harness.js';

useReviewHarness();

describe('reading the local change', () => {
  let r: TempRepo;
  beforeAll(async () => {
    r = await scenario();
  });

  it('combines committed, staged, unstaged and untracked changes since the merge base with main', async () => {
    const local = await readLocalChange({ cwd: r.dir });
    expect(local.base.description).toMatch(/^main \(merge base [0-9a-f]{12}\)$/);
    const mergeBase = (await r.git('merge-base', 'main', 'HEAD')).trim();
    expect(local.base.base).toBe(mergeBase);
    const byPath = new Map(local.change.files.map((f) => [f.path, f]));
    expect([...byPath.keys()]).toEqual([
      'README.md',
      'assets/logo.bin',
      'notes/todo.txt',
      'src/app.js',
      'src/gone.js',
      'src/new-name.js',
      'src/staged.js',
    ]);
    // Not the commit main made after the branch point, not the ignored file.
    expect(byPath.has('MAIN_ONLY.md')).toBe(false);
    expect(byPath.has('debug.log')).toBe(false);

    expect(byPath.get('src/app.js')).toMatchObject({
      status: 'modified',
      additions: 4,
      deletions: 1,
      content: APP_FEATURE,
    });
    expect(byPath.get('src/app.js')?.patch).toMatch(/^@@ -1,3 \+1,6 @@/);
    expect(byPath.get('src/app.js')?.patch).toContain('+  return Number(a) + Number(b);');
    expect(byPath.get('README.md')).toMatchObject({ status: 'modified', additions: 2, deletions: 0 });
    expect(byPath.get('src/gone.js')).toMatchObject({ status: 'removed', additions: 0, deletions: 2 });
    expect(byPath.get('src/gone.js')?.content).toBeUndefined();
    expect(byPath.get('src/new-name.js')).toMatchObject({
      status: 'renamed',
      previousPath: 'src/old-name.js',
      additions: 0,
      deletions: 0,
      patch: undefined,
    });
    expect(byPath.get('src/staged.js')).toMatchObject({
      status: 'added',
      additions: 1,
      deletions: 0,
      patch: '@@ -0,0 +1 @@\n+export const staged = true;',
      content: 'export const staged = true;\n',
    });
    expect(byPath.get('notes/todo.txt')).toEqual({
      path: 'notes/todo.txt',
      status: 'added',
      additions: 3,
      deletions: 0,
      content: 'a\nb\nc',
      patch: '@@ -0,0 +1,3 @@\n+a\n+b\n+c\n\\ No newline at end of file',
    });
    expect(byPath.get('assets/logo.bin')).toEqual({
      path: 'assets/logo.bin',
      status: 'added',
      additions: 0,
      deletions: 0,
    });
  });

  it('an untracked file reads as git would show it once added', async () => {
    const local = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
    const todo = local.change.files.find((f) => f.path === 'notes/todo.txt');
    await r.git('add', '-N', 'notes/todo.txt');
    try {
      const asGit = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
      expect(asGit.change.files.find((f) => f.path === 'notes/todo.txt')).toEqual(todo);
    } finally {
      await r.git('reset', '-q', 'notes/todo.txt');
    }
  });

  it('--base REF compares with the merge base of REF, so HEAD leaves the uncommitted work', async () => {
    const local = await readLocalChange({ cwd: r.dir, base: 'HEAD' });
    expect(local.change.files.map((f) => f.path)).toEqual([
      'README.md',
      'assets/logo.bin',
      'notes/todo.txt',
      'src/staged.js',
    ]);
    const main = await readLocalChange({ cwd: r.dir, base: 'main' });
    expect(main.base.base).toBe((await readLocalChange({ cwd: r.dir })).base.base);
  });

  it('runs from a subdirectory and still names files from the repository root', async () => {
    const local = await readLocalChange({ cwd: path.join(r.dir, 'src') });
    expect(await realpath(local.root)).toBe(await realpath(r.dir));
    expect(local.change.files.map((f) => f.path)).toContain('notes/todo.txt');
  });

  it('prefers the branch origin/HEAD points at', async () => {
    const s = await scenario();
    const head = (await s.git('rev-parse', 'HEAD')).trim();
    await s.git('update-ref', 'refs/remotes/origin/trunk', head);
    await s.git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toMatch(/^origin\/trunk /);
    expect(local.base.base).toBe(head);
    expect(local.change.files.map((f) => f.path)).not.toContain('src/app.js');
  });

  it('falls back to master', async () => {
    const s = await repo('master');
    await s.write('a.txt', 'one\n');
    await s.git('add', '-A');
    await s.git('commit', '-q', '-m', 'base');
    await s.git('checkout', '-q', '-b', 'topic');
    await s.write('a.txt', 'one\ntwo\n');
    await s.git('commit', '-q', '-am', 'topic');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toMatch(/^master /);
    expect(local.change.files).toEqual([
      expect.objectContaining({ path: 'a.txt', status: 'modified', additions: 1, deletions: 0 }),
    ]);
  });

  it('without commits, everything is added against the empty tree', async () => {
    const s = await repo();
    await s.write('staged.txt', 'x\ny\n');
    await s.git('add', 'staged.txt');
    await s.write('loose.txt', 'z\n');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toBe('the empty tree (no commits yet)');
    expect(local.change.files).toEqual([
      expect.objectContaining({ path: 'loose.txt', status: 'added', additions: 1 }),
      expect.objectContaining({ path: 'staged.txt', status: 'added', additions: 2, content: 'x\ny\n' }),
    ]);
  });

  it('without a default branch, the whole tree is the change', async () => {
    const s = await repo('dev');
    await s.write('a.txt', 'one\n');
    await s.git('add', '-A');
    await s.git('commit', '-q', '-m', 'only');
    const local = await readLocalChange({ cwd: s.dir });
    expect(local.base.description).toBe('the empty tree (no default branch)');
    expect(local.change.files).toEqual([expect.objectContaining({ path: 'a.txt', status: 'added', additions: 1 })]);
  });
});
