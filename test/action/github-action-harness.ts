import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as github from '@actions/github';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import type { ActionIo } from '../../src/action/action-io.js';
import { runAction } from '../../src/action/run-action.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples') as { name: string; examples: Record<string, unknown>[] }[];
const enterpriseExamples = require('@octokit/webhooks-examples/ghes-35/index.json') as typeof examples;

/** A real payload of @octokit/webhooks-examples (github.com, or Enterprise Server 3.5), to adjust per test. */
export function example(name: string, action: string | undefined, enterprise = false) {
  const found = (enterprise ? enterpriseExamples : examples)
    .find((e) => e.name === name)
    ?.examples.find((x) => x.action === action);
  if (found === undefined) throw new Error(`no ${name}.${action} example`);
  // biome-ignore lint/suspicious/noExplicitAny: a webhook payload, adjusted freely by the tests
  return structuredClone(found) as any;
}

export const REDLINE = 'https://redline.example.com';
export const API_KEY = ['svc', 'test', 'a'.repeat(32)].join('_');
// Assembled at run time: a secret scanner must not see a token-shaped literal.
export const TOKEN = ['ghs', 'b'.repeat(36)].join('_');

export interface ActionRun {
  calls: { method: string; args: unknown[] }[];
  summary: string;
  failed: string | undefined;
  /** Warnings that are not a comment's annotation. */
  warnings: string[];
  outputs: Record<string, string>;
}

type Context = typeof github.context;
const ContextClass = github.context.constructor as new () => Context;

const dirs: string[] = [];

/**
 * @actions/github's Context, hydrated as on a runner: from GITHUB_* variables and the event file
 * (the package's `context` is made once, at import; a run needs its own).
 */
export function contextFor(event: { name: string; payload: unknown }, server?: { serverUrl: string; apiUrl: string }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'redline-event-'));
  dirs.push(dir);
  const file = path.join(dir, 'event.json');
  writeFileSync(file, JSON.stringify(event.payload));
  vi.stubEnv('GITHUB_EVENT_NAME', event.name);
  vi.stubEnv('GITHUB_EVENT_PATH', file);
  vi.stubEnv('GITHUB_SERVER_URL', server?.serverUrl);
  vi.stubEnv('GITHUB_API_URL', server?.apiUrl);
  try {
    return new ContextClass();
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Runs the action as the entry does, with the real @actions/github, over a recording ActionIo. */
export async function run(
  inputs: Record<string, string>,
  context: Context,
  getOctokit: typeof github.getOctokit = github.getOctokit,
): Promise<ActionRun> {
  const result: ActionRun = { calls: [], summary: '', failed: undefined, warnings: [], outputs: {} };
  const record =
    (method: string) =>
    (...args: unknown[]) => {
      result.calls.push({ method, args });
    };
  const io: ActionIo = {
    getInput: (name) => inputs[name] ?? '',
    setSecret: record('setSecret'),
    setOutput: (name, value) => {
      result.outputs[name] = value;
    },
    info: record('info'),
    error: record('error'),
    // The step's own warnings; those with a file and line are the comments' annotations.
    warning: (message, properties) => {
      if (properties) result.calls.push({ method: 'warning', args: [message, properties] });
      else result.warnings.push(message);
    },
    notice: record('notice'),
    setFailed: (message) => {
      result.failed = message;
    },
    writeSummary: async (markdown) => {
      result.summary = markdown;
    },
  };
  await runAction({
    io,
    env: {},
    github: { context, getOctokit },
    // nock intercepts the global fetch; @actions/github's own (undici's, for proxies) it cannot see.
    fetch: (input, init) => globalThis.fetch(input, init),
    sleep: async () => {},
  });
  return result;
}

/** No real network in the file's tests; every interceptor must have been used. */
export function useNock() {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    if (pending.length > 0) throw new Error(`GitHub or Redline calls expected but not made: ${pending.join(', ')}`);
  });
  afterAll(() => {
    nock.enableNetConnect();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
}
