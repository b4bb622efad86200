import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './redline-process.js';

export interface DistRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The GITHUB_OUTPUT file as written. */
  outputFile: string;
  /** The GITHUB_STEP_SUMMARY file as written. */
  summaryFile: string;
  ms: number;
}

export interface RunOptions {
  /** Inputs by their action.yml names; action.yml's defaults fill the rest, as the runner does. */
  inputs: Record<string, string>;
  event?: { name: string; payload: unknown };
  /** The workflow run: one id for all attempts of a run. */
  runId?: string;
  runAttempt?: number;
  /** More variables of the runner's (GITHUB_API_URL, say). */
  env?: Record<string, string>;
}

interface ActionYml {
  inputs: Record<string, { default?: string }>;
}

const actionYml = parse(await readFile(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** A run id no other test uses, so each test's create call has its own Idempotency-Key. */
export const newRunId = () => String(1_000_000 + randomBytes(3).readUIntBE(0, 3));

/**
 * Runs the committed dist/index.js the way a GitHub runner does: a fresh process whose
 * environment holds only INPUT_* (name uppercased, spaces to underscores, dashes kept), the
 * GITHUB_* variables of a pull_request run, and the files GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
 * GITHUB_EVENT_PATH point to.
 */
export async function runDist(options: RunOptions): Promise<DistRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-runner-'));
  try {
    const files = {
      event: path.join(dir, 'event.json'),
      output: path.join(dir, 'output'),
      summary: path.join(dir, 'summary.md'),
    };
    const event = options.event ?? { name: 'push', payload: { ref: 'refs/heads/main' } };
    await writeFile(files.event, JSON.stringify(event.payload));
    await writeFile(files.output, '');
    await writeFile(files.summary, '');
    const inputs: Record<string, string> = {};
    for (const [name, spec] of Object.entries(actionYml.inputs)) {
      // An expression default (`${{ github.token }}`) is the runner's to evaluate; none here.
      const value = options.inputs[name] ?? (spec.default?.includes('${{') ? undefined : spec.default);
      if (value !== undefined) inputs[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
    }
    const env = {
      PATH: process.env.PATH ?? '',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: options.runId ?? newRunId(),
      GITHUB_RUN_ATTEMPT: String(options.runAttempt ?? 1),
      GITHUB_JOB: 'review',
      GITHUB_ACTION: 'redline',
      GITHUB_EVENT_NAME: event.name,
      GITHUB_EVENT_PATH: files.event,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      ...options.env,
      ...inputs,
    };
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/index.js')], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return {
      code,
      stdout,
      stderr,
      outputFile: await readFile(files.output, 'utf8'),
      summaryFile: await readFile(files.summary, 'utf8'),
      ms: Date.now() - started,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The GITHUB_OUTPUT file @actions/core writes for these outputs, in this order: each one a
 * `name<<delimiter` block. The delimiters are random, so each is replaced by its own name.
 */
export function outputFile(entries: [string, string][]): string {
  return entries.map(([name, value]) => `${name}<<DELIMITER\n${value}\nDELIMITER\n`).join('');
}

export function withPlainDelimiters(file: string): string {
  return file.replace(/ghadelimiter_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'DELIMITER');
}
