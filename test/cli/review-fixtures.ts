import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Temporary git repositories for `redline review` (test/cli/review.test.ts), and the planted
// problems a test can assert the engine finds once its rules are wired in:
//
//   const repo = await makeRepo();
//   const planted = await plantProblems(repo);            // uncommitted, so `review` sees them
//   const io = captureIo();
//   const code = await main(['review', '--format', 'json', '-C', repo.dir], {}, io);
//   // expect a comment on planted.eval.file at planted.eval.line (security, critical/important)
//   // and one on planted.secret.file at planted.secret.line (a hard-coded AWS access key)

export interface TempRepo {
  dir: string;
  /** Runs git in the repository (author and committer fixed, no user or system config). */
  git(...args: string[]): Promise<string>;
  write(file: string, text: string): Promise<void>;
  remove(): Promise<void>;
}

/** A fresh repository on branch `initial` (default `main`), with a local identity and no signing. */
export async function makeRepo(initial = 'main'): Promise<TempRepo> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-review-'));
  const run = (...args: string[]) => gitIn(dir, args);
  await run('init', '--quiet', `--initial-branch=${initial}`);
  await run('config', 'user.name', 'Redline Test');
  await run('config', 'user.email', 'test@redline.invalid');
  await run('config', 'commit.gpgsign', 'false');
  await run('config', 'core.autocrlf', 'false');
  return {
    dir,
    git: run,
    async write(file, text) {
      const full = path.join(dir, ...file.split('/'));
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, text);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

function gitIn(dir: string, args: string[]): Promise<string> {
  // Without the caller's GIT_DIR and friends (a hook, a worktree) and with a fixed clock.
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GIT_')) env[key] = value;
  }
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z',
  });
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: dir, env, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

export interface PlantedProblem {
  file: string;
  line: number;
}

export interface Planted {
  /** `eval(userInput)` on a request parameter, in a JavaScript file. */
  eval: PlantedProblem;
  /** A hard-coded AWS access key id (`AKIA` + 16 characters, made at run time). */
  secret: PlantedProblem & { accessKeyId: string };
}

/**
 * Writes two problems a security review must catch, uncommitted (so any base sees them):
 * src/planted/handler.js with eval on user input, and src/planted/aws.js with an AWS-like key.
 * The key is assembled here at run time; no such literal exists in the repository.
 */
export async function plantProblems(repo: TempRepo): Promise<Planted> {
  const handler = [
    "const express = require('express');",
    'const app = express();',
    "app.get('/calc', (req, res) => {",
    '  const userInput = req.query.expr;',
    '  const result = eval(userInput);',
    '  res.send(String(result));',
    '});',
    'module.exports = app;',
    '',
  ].join('\n');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let tail = '';
  for (let i = 0; i < 16; i++) tail += alphabet[randomInt(alphabet.length)];
  const accessKeyId = ['AK', 'IA'].join('') + tail;
  const aws = [
    '// Uploads reports to S3.',
    `const accessKeyId = '${accessKeyId}';`,
    "module.exports = { region: 'us-east-1', accessKeyId };",
    '',
  ].join('\n');
  await repo.write('src/planted/handler.js', handler);
  await repo.write('src/planted/aws.js', aws);
  return {
    eval: { file: 'src/planted/handler.js', line: 5 },
    secret: { file: 'src/planted/aws.js', line: 2, accessKeyId },
  };
}

/** An io for main() that keeps what was printed. */
export function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (line: string) => void out.push(line),
    err: (line: string) => void err.push(line),
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
  };
}
