import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMAND_USAGE } from '../../src/cli/help.js';
import { main, USAGE } from '../../src/cli/main.js';

// `redline <command> --help`, `-h` and `redline help <command>` print that command's usage on
// stdout and exit 0, without touching a database (DATA_DIR under /dev/null cannot be opened).
const env: Record<string, string> = { DATA_DIR: '/dev/null/redline', LOG_LEVEL: 'silent' };

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

const FIRST_LINES: [string[], string][] = [
  [['serve'], 'Usage: redline serve [--role api|worker|all]'],
  [['migrate'], 'Usage: redline migrate'],
  [
    ['token', 'create'],
    'Usage: redline token create --user <usr_…|name> --scopes a,b [--test] [--expires-in S] [--name N]',
  ],
  [['plan', 'set'], 'Usage: redline plan set <usr_…|org_…> <free|pro|enterprise>'],
  [['review'], 'Usage: redline review [--base REF] [--format text|json|sarif] [--fail-on LEVEL] [-C DIR]'],
];

describe('redline <command> --help', () => {
  it.each(FIRST_LINES)('%j --help, -h and help %j print that usage and exit 0', async (command, firstLine) => {
    const usage = COMMAND_USAGE[command.join(' ') as keyof typeof COMMAND_USAGE];
    expect(usage.split('\n')[0]).toBe(firstLine);
    expect(usage).toContain('-h, --help');
    expect(usage).toMatch(/Exit codes: 0 .*, 1 .*,\s2 usage error/s);
    for (const argv of [
      [...command, '--help'],
      [...command, '-h'],
      ['help', ...command],
    ]) {
      expect(await run(argv)).toEqual({ code: 0, out: [usage], err: [] });
    }
  });

  it('wins over the other arguments, even invalid ones', async () => {
    const usage = COMMAND_USAGE['token create'];
    expect(await run(['token', 'create', '--scopes', 'root', '--help'])).toEqual({ code: 0, out: [usage], err: [] });
    expect(await run(['token', '--help'])).toEqual({ code: 0, out: [usage], err: [] });
    expect(await run(['plan', '-h'])).toEqual({ code: 0, out: [COMMAND_USAGE['plan set']], err: [] });
    expect((await run(['review', '--format', 'xml', '-h'])).code).toBe(0);
  });

  it('documents every option the parsers accept', () => {
    expect(COMMAND_USAGE.serve).toMatch(/--role all[\s\S]*--role api[\s\S]*--role worker/);
    for (const option of ['--user', '--scopes', '--test', '--expires-in', '--name']) {
      expect(COMMAND_USAGE['token create']).toContain(`  ${option} `);
    }
    for (const option of ['--base', '--format', '--fail-on', '-C']) {
      expect(COMMAND_USAGE.review).toContain(`  ${option} `);
    }
  });

  it('the top-level usage names every command and how to get its help', async () => {
    for (const command of ['serve', 'migrate', 'token create', 'plan set', 'review', 'help [<command>]']) {
      expect(USAGE).toContain(`\n  ${command}`);
    }
    expect(USAGE).toContain('redline <command> --help');
    expect(await run(['--help'])).toEqual({ code: 0, out: [USAGE], err: [] });
    expect(await run(['-h'])).toEqual({ code: 0, out: [USAGE], err: [] });
  });
});

describe('docs/cli.md', () => {
  it('shows every usage as the commands print it', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    expect(doc).toContain(`$ redline --help\n${USAGE}\n`);
    for (const [command, usage] of Object.entries(COMMAND_USAGE)) {
      expect(doc).toContain(`$ redline ${command} --help\n${usage}\n`);
    }
  });
});

describe('what is not a help request', () => {
  it('--help after -- is an argument: serve still refuses it (2)', async () => {
    const { code, out, err } = await run(['serve', '--', '--help']);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toContain('serve takes no arguments');
  });

  it.each([
    [['serve', '--bogus'], "Unknown option '--bogus'", COMMAND_USAGE.serve],
    [['migrate', '--bogus'], "Unknown option '--bogus'", COMMAND_USAGE.migrate],
    [['token', 'create', '--user', 'a', '--scopes', 'org:read', '--bogus'], "'--bogus'", COMMAND_USAGE['token create']],
    [['review', '--bogus'], "Unknown option '--bogus'", COMMAND_USAGE.review],
    [['help', 'frobnicate'], 'unknown command "frobnicate"', USAGE],
  ])('%j exits 2 with the message and the usage on stderr', async (argv, message, usage) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    const text = err.join('\n');
    expect(text.split('\n')[0]).toMatch(/^redline: /);
    expect(text.split('\n')[0]).toContain(message);
    expect(text.endsWith(`\n\n${usage}`)).toBe(true);
  });
});

describe('bin/redline.js', () => {
  it('review --help writes the usage to stdout and exits 0', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/redline.js', 'review', '--help'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    expect(stdout).toBe(`${COMMAND_USAGE.review}\n`);
    expect(stderr).toBe('');
  });
});
