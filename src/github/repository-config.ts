import { type Document, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { DEFAULT_REVIEW_GATE } from '../common/github-review/build-review-plan.js';
import { SEVERITIES } from '../common/severity.js';
import { FINDING_TYPES, type FindingType } from '../engine/finding-types.js';

/** Where a repository configures Redline, read from its default branch (decisions §7). */
export const REPOSITORY_CONFIG_PATH = '.github/redline.yml';

/** A configuration file larger than this is refused unread: nobody needs 64 KiB to configure a reviewer. */
export const MAX_CONFIG_BYTES = 64 * 1024;

/** An empty value (`exclude:` with nothing after it) means the default, as it reads. */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema);

const flag = (fallback: boolean) => orDefault(z.boolean({ error: 'must be true or false' }).default(fallback));

const patterns = (what: string) =>
  orDefault(
    z
      .array(
        z
          .string({ error: `must be a ${what}` })
          .min(1, { error: `must be a ${what}, not empty` })
          .max(200, { error: 'must be at most 200 characters' }),
        { error: `must be a list of ${what}s` },
      )
      .max(100, { error: 'must have at most 100 entries' })
      .default(() => []),
  );

const severity = z.enum(SEVERITIES, {
  error: `must be one of ${SEVERITIES.join(', ')}`,
});

const checks = z.strictObject(
  Object.fromEntries(FINDING_TYPES.map((type) => [type, flag(true)])) as Record<FindingType, ReturnType<typeof flag>>,
  { error: 'must be a mapping of finding types to true or false' },
);

const paths = z.strictObject(
  { include: patterns('path pattern'), exclude: patterns('path pattern') },
  { error: 'must be a mapping with include and exclude lists' },
);

const wholeNumber = 'must be a whole number from 0 to 100';

/**
 * `.github/redline.yml`. Strict: an unknown key is an error naming it, so a misspelt option is
 * never silently ignored (the same rule as request bodies, decisions §10 and §19).
 */
const repositoryConfigSchema = z.strictObject(
  {
    enabled: flag(true),
    auto_review: flag(true),
    drafts: flag(false),
    /** Base branches (patterns) whose pull requests are reviewed; empty: all. */
    base_branches: patterns('branch pattern'),
    paths: orDefault(paths.default(() => ({ include: [], exclude: [] }))),
    checks: orDefault(
      checks.default(() => ({ security: true, performance: true, bug: true, style: true, suggestion: true })),
    ),
    /** Findings below this are neither commented nor counted. */
    min_severity: orDefault(severity.default('info')),
    /** `never`: Redline comments or approves, it never blocks a merge. */
    request_changes_on: orDefault(
      z
        .union([severity, z.literal('never')], { error: `must be one of ${SEVERITIES.join(', ')} or never` })
        .default(DEFAULT_REVIEW_GATE.request_changes_on),
    ),
    approve: flag(DEFAULT_REVIEW_GATE.approve),
    /** Inline comments per review; the rest go to the review body. 0: everything in the body. */
    max_comments: orDefault(
      z
        .number({ error: wholeNumber })
        .int({ error: wholeNumber })
        .min(0, { error: wholeNumber })
        .max(100, { error: wholeNumber })
        .default(DEFAULT_REVIEW_GATE.max_comments),
    ),
    /** Rule ids (patterns: `js.style.*`) whose findings are dropped. */
    ignore_rules: patterns('rule id'),
  },
  { error: 'must be a mapping of options' },
);

export type RepositoryConfig = z.output<typeof repositoryConfigSchema>;

/** The configuration of a repository without a (valid) `.github/redline.yml`; a fresh object each call. */
export function defaultRepositoryConfig(): RepositoryConfig {
  return repositoryConfigSchema.parse({});
}

export interface ParsedRepositoryConfig {
  config: RepositoryConfig;
  /** What is wrong with the file, each naming where; empty when it is valid. */
  errors: string[];
}

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(repositoryConfigSchema.shape),
  paths: ['include', 'exclude'],
  checks: FINDING_TYPES,
};

interface Located {
  /** Where in the file, for ordering: the offset of the value (or the unknown key). */
  offset: number;
  text: string;
}

/** Each problem named by its option's path and line, in the order they appear in the file. */
function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  document: Document,
  lines: LineCounter,
): string[] {
  const located: Located[] = [];
  const at = (path: readonly PropertyKey[], text: string, keyOf?: boolean) => {
    const node = document.getIn(path as unknown[], true) as { range?: [number, number, number] } | undefined;
    let offset = node?.range?.[0];
    if (keyOf) {
      // An unknown key: point at the key itself, found among its mapping's pairs.
      const parent = document.getIn(path.slice(0, -1) as unknown[], true) as
        | { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] }
        | undefined;
      offset = parent?.items?.find((p) => p.key?.value === path[path.length - 1])?.key?.range?.[0] ?? offset;
    }
    const where = pathText(path) || '(file)';
    const line = offset !== undefined && path.length > 0 ? ` (line ${lines.linePos(offset).line})` : '';
    located.push({ offset: offset ?? -1, text: `${where}${line}: ${text}` });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = KNOWN_KEYS[pathText(issue.path)];
      for (const key of issue.keys) {
        at([...issue.path, key], `unknown option${known ? ` (known: ${known.join(', ')})` : ''}`, true);
      }
      continue;
    }
    const got = valueAt(input, issue.path);
    at(issue.path, `${issue.message}${got === undefined ? '' : ` (got ${shown(got)})`}`);
  }
  return located.sort((a, b) => a.offset - b.offset).map((l) => l.text);
}

/**
 * `.github/redline.yml` read and checked. Any problem (YAML that does not parse, an unknown
 * option, a wrong value) is listed with where it is, and the defaults are used whole (decisions
 * §7): a half-applied file would review in a way nobody wrote down. An empty file is the defaults.
 */
export function parseRepositoryConfig(text: string): ParsedRepositoryConfig {
  const fallback = (errors: string[]) => ({ config: defaultRepositoryConfig(), errors });
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) {
    return fallback([`(file): larger than ${MAX_CONFIG_BYTES / 1024} KiB`]);
  }
  // YAML 1.2 (the library's default): `yes`/`no` are strings, so `enabled: yes` is reported, not guessed.
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return fallback(
      document.errors.map((e) => {
        const { line, col } = lines.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message}`;
      }),
    );
  }
  let input: unknown;
  try {
    input = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // An alias to nothing, or aliases that would expand beyond reason.
    return fallback([`(file): ${(error as Error).message}`]);
  }
  const parsed = repositoryConfigSchema.safeParse(input ?? {});
  if (!parsed.success) return fallback(describeIssues(parsed.error.issues, input, document, lines));
  return { config: parsed.data, errors: [] };
}
