import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError } from '../config/config-error.js';
import type { Plan } from '../db/schema.js';
import { COMMAND_USAGE, commandOf, helpRequest } from './help.js';
import { capYoungGeneration, limitHeapGrowth } from './limit-heap-growth.js';
import { restartWithWasmFlag } from './restart-with-wasm-flag.js';
import { UsageError } from './usage-error.js';

// Each command loads its own modules when it runs: `redline review` never loads the server, the
// database or Probot, and a usage error answers before any of them.
const serveCommand = () => import('./serve.js');
const runtime = () => import('./runtime.js');
const tokens = () => import('./token-create.js');

export const USAGE = `Usage: redline <command> [options]

  serve [--role api|worker|all]      the API, GitHub webhooks and workers (default: all)
  migrate                            apply database migrations
  token create --user <usr_…|name> --scopes a,b [--test] [--expires-in S] [--name N]
                                     print a new API token once (a new name makes a local user)
  dashboard-link --user <usr_…|name> print a one-time dashboard sign-in link (10 minutes)
  plan set <usr_…|org_…> <free|pro|enterprise>
                                     set a user's or an organization's plan
  review [--base REF] [--format text|json|sarif] [--fail-on LEVEL] [-C DIR]
                                     review the local git change offline with the same engine
  help [<command>]                   this text, or a command's own usage

redline <command> --help prints that command's usage. Configuration comes from environment
variables (docs/configuration.md). Exit codes: 0 done, 1 failed, 2 usage error.`;

type Io = { out: (line: string) => void; err: (line: string) => void };
const stdio: Io = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** Runs one command; the answer is the process exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], env = process.env, io: Io = stdio): Promise<number> {
  try {
    return await run(argv, env, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const command = commandOf(argv);
      io.err(`redline: ${error.message}\n\n${command === undefined ? USAGE : COMMAND_USAGE[command]}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    io.err(`redline: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function parse<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function run(argv: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  const help = helpRequest(argv);
  if (help !== undefined) {
    io.out(help);
    return 0;
  }
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      // Before the server's modules load (and before anything else: this may start the process again).
      restartWithWasmFlag(argv);
      capYoungGeneration();
      const { values, positionals } = parse(rest, { role: { type: 'string' } });
      if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got ${positionals.join(' ')})`);
      const { parseRole, serve } = await serveCommand();
      const role = parseRole(values.role as string | undefined);
      limitHeapGrowth();
      return serve(env, role);
    }
    case 'migrate': {
      const { positionals } = parse(rest, {});
      if (positionals.length > 0) throw new UsageError('migrate takes no arguments');
      const { openRuntime } = await runtime();
      const { database, migrations } = await openRuntime(env);
      await database.close();
      io.err(migrations.length > 0 ? `applied: ${migrations.join(', ')}` : 'database is up to date');
      return 0;
    }
    case 'token': {
      const [sub, ...args] = rest;
      if (sub !== 'create') throw new UsageError('the token command is "token create"');
      const { values, positionals } = parse(args, {
        user: { type: 'string' },
        scopes: { type: 'string' },
        test: { type: 'boolean', default: false },
        'expires-in': { type: 'string' },
        name: { type: 'string' },
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
      if (typeof values.user !== 'string') throw new UsageError('--user is required');
      if (typeof values.scopes !== 'string') throw new UsageError('--scopes is required');
      const options = {
        user: values.user,
        scopes: values.scopes,
        test: values.test === true,
        expiresIn: values['expires-in'] as string | undefined,
        name: values.name as string | undefined,
      };
      const { checkTokenOptions, tokenCreate } = await tokens();
      checkTokenOptions(options);
      const { openRuntime } = await runtime();
      const { database } = await openRuntime(env);
      try {
        const result = await tokenCreate(database.db, options, new Date());
        if (result.created) io.err(`created local user ${result.user.username} (${result.user.id})`);
        io.err(
          `token ${result.row.id} for ${result.user.username}, scopes ${result.row.scopes.join(',')}, expires ${result.row.expires_at.toISOString()}; shown once:`,
        );
        io.out(result.token);
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'dashboard-link': {
      const { values, positionals } = parse(rest, { user: { type: 'string' } });
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
      if (typeof values.user !== 'string') throw new UsageError('--user is required');
      const { checkCliUser } = await tokens();
      checkCliUser(values.user);
      const { openRuntime } = await runtime();
      const { dashboardLink } = await import('./dashboard-link.js');
      const { config, database } = await openRuntime(env);
      try {
        const link = await dashboardLink(database.db, values.user, config.publicUrl, new Date());
        if (link.created) io.err(`created local user ${link.user.username} (${link.user.id})`);
        io.err(`sign-in link for ${link.user.username}, one use, until ${link.expiresAt.toISOString()}:`);
        io.out(link.url);
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'plan': {
      const [sub, id, plan, ...extra] = rest;
      if (sub !== 'set' || id === undefined || plan === undefined || extra.length > 0) {
        throw new UsageError('usage: redline plan set <usr_…|org_…> <free|pro|enterprise>');
      }
      if (!/^(usr|org)_[0-9A-Za-z]+$/.test(id)) throw new UsageError(`"${id}" is not a usr_ or org_ id`);
      if (plan !== 'free' && plan !== 'pro' && plan !== 'enterprise') {
        throw new UsageError(`plan must be free, pro or enterprise (got "${plan}")`);
      }
      const { openRuntime } = await runtime();
      const { setPlan } = await import('../auth/accounts.js');
      const { database } = await openRuntime(env);
      try {
        if (!(await setPlan(database.db, id, plan as Plan))) {
          io.err(`redline: no user or organization ${id}`);
          return 1;
        }
        io.err(`${id} is now on the ${plan} plan`);
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'review': {
      const { parseReviewArgs, reviewCommand } = await import('./review.js');
      return reviewCommand(parseReviewArgs(rest), io, { env });
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
