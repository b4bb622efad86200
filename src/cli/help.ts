import { UsageError } from './usage-error.js';

const EXIT_CODES = 'Exit codes: 0 done, 1 failed (the message says why), 2 usage error.';

/** Each command's own usage, printed by `redline <command> --help` and `redline help <command>`. */
export const COMMAND_USAGE = {
  serve: `Usage: redline serve [--role api|worker|all]

Applies pending database migrations, then serves the API, the GitHub webhook endpoint and the
workers on HOST:PORT (default 0.0.0.0:3000) until SIGTERM or SIGINT, which drain in-flight
requests first.

  --role all      the HTTP server and the workers in one process (default)
  --role api      the HTTP server only
  --role worker   the workers only (reviews, webhook deliveries); needs DATABASE_URL to share
                  the work with api processes
  -h, --help      print this help

Configuration comes from environment variables (docs/configuration.md).
Exit codes: 0 stopped cleanly, 1 failed to start or to stop, 2 usage error.`,

  migrate: `Usage: redline migrate

Applies pending database migrations (DATABASE_URL, or the embedded database in DATA_DIR) and
says which, or that the database is up to date. Running it twice is harmless; serve does it too.

  -h, --help      print this help

${EXIT_CODES}`,

  'token create': `Usage: redline token create --user <usr_…|name> --scopes a,b [--test] [--expires-in S] [--name N]

Prints a new API token on stdout, once (only its hash is stored). A name that no user has makes
a local user of that name, with a personal organization. With the embedded database, stop the
server first: the data directory belongs to one process at a time.

  --user ID|NAME    a usr_ id, or a username (letters, digits, hyphens; at most 39)
  --scopes LIST     comma list of review:read, review:write, org:read, org:write,
                    team:read, team:write
  --test            a svc_test_ token (test mode: no GitHub calls, no quota) instead of svc_live_
  --expires-in S    lifetime in seconds, 60 to 31536000 (default 7776000, 90 days)
  --name N          the token's name in listings (default cli)
  -h, --help        print this help

${EXIT_CODES}`,

  'dashboard-link': `Usage: redline dashboard-link --user <usr_…|name>

Prints a link that signs the user into the dashboard (PUBLIC_URL/app/): one use, valid for ten
minutes, only its hash stored. A name that no user has makes a local user of that name. With the
embedded database, run it before \`redline serve\` (the data directory belongs to one process
at a time), then open the link while the server runs.

  --user ID|NAME    a usr_ id, or a username (letters, digits, hyphens; at most 39)
  -h, --help        print this help

${EXIT_CODES}`,

  'plan set': `Usage: redline plan set <usr_…|org_…> <free|pro|enterprise>

Sets a user's plan (its request rate) or an organization's plan (its review quota).

  -h, --help      print this help

${EXIT_CODES}`,

  review: `Usage: redline review [--base REF] [--format text|json|sarif] [--fail-on LEVEL] [-C DIR]

Reviews the local git change with the service's engine, offline: everything since the merge
base with the default branch (or with REF), uncommitted and untracked files included. The
report goes to stdout, a line saying what was compared to stderr.

  --base REF       compare with the merge base of REF (default: the default branch)
  --format F       text (default), json (the API's shapes) or sarif (SARIF 2.1.0)
  --fail-on LEVEL  exit 1 when a comment is at or above LEVEL: critical (default),
                   important, warning, info, or never
  -C DIR           run in DIR instead of the current directory
  -h, --help       print this help

Exit codes: 0 no comment at or above --fail-on, 1 one or more (or the review failed),
2 usage error (including: not in a git repository).`,
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

/** The command (and subcommand) that `argv` names, if it is one of ours. */
export function commandOf(argv: readonly string[]): CommandName | undefined {
  const [first] = argv;
  if (first === 'token') return 'token create';
  if (first === 'plan') return 'plan set';
  return first !== undefined && Object.hasOwn(COMMAND_USAGE, first) ? (first as CommandName) : undefined;
}

/**
 * The usage to print when `argv` asks for a command's help (`<command> … --help`, `-h`, or
 * `help <command>`); undefined when it does not. `--help` after `--` is an argument, not a request.
 */
export function helpRequest(argv: readonly string[]): string | undefined {
  if (argv[0] === 'help' && argv.length > 1) {
    const command = commandOf(argv.slice(1));
    if (command === undefined) throw new UsageError(`unknown command "${argv.slice(1).join(' ')}"`);
    return COMMAND_USAGE[command];
  }
  const command = commandOf(argv);
  if (command === undefined) return undefined;
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h') ? COMMAND_USAGE[command] : undefined;
}
