import type { Analysis, Env } from './context.js';
import { dottedName, evaluate, indexPath } from './evaluate.js';
import type { Constant, Expr } from './ir.js';
import { matchesAny } from './qualified-name.js';
import { clear, constant, type LocalMark, taintOf, type Value } from './value.js';

/** What a condition proves about a variable in the branch where it holds. */
interface Refinement {
  path: string;
  /** Equal to this constant (`x == "a"`), or safe for these CWEs (all when undefined). */
  value?: Value | undefined;
  cwes?: number[] | undefined;
  /** The subject's value before the check, for a path the environment does not hold (`req.query.sort`). */
  before?: Value | undefined;
  /** What the check found of a redirect target's start (see `Value.local`). */
  mark?: LocalMark | undefined;
}

export interface Refinements {
  whenTrue: Refinement[];
  whenFalse: Refinement[];
}

const NONE: Refinements = { whenTrue: [], whenFalse: [] };

/** Conversions to text that keep what a check of the text proves of the value: `path.to_s`, `String(p)`. */
const AS_TEXT = new Set(['to_s', 'to_str', 'toString', 'String', 'str']);

/** The value a check reads: through a conversion to text, the value converted. */
function checked(expr: Expr | undefined): Expr | undefined {
  if (expr?.k !== 'call' || !AS_TEXT.has(expr.name)) return expr;
  if (expr.receiver && expr.args.length === 0) return expr.receiver;
  return !expr.receiver && expr.args.length === 1 ? expr.args[0] : expr;
}

function pathOf(expr: Expr | undefined): string | undefined {
  if (expr?.k === 'index') return indexPath(expr);
  return expr && (expr.k === 'name' || expr.k === 'attr') ? dottedName(expr) || undefined : undefined;
}

/**
 * Allow-list membership (`x in ALLOWED`, `allowed.contains(x)`), equality with a constant, a
 * host allow-list check, and a prefix check of a normalised path make their variable safe where
 * they hold; `not` and `!` swap the branches, `and`/`&&` proves both sides where it holds and
 * `or`/`||` both where it does not.
 */
export function refinementsOf(analysis: Analysis, env: Env, test: Expr): Refinements {
  if (test.k === 'unary' && (test.op === '!' || test.op === 'not')) {
    const inner = refinementsOf(analysis, env, test.arg);
    return { whenTrue: inner.whenFalse, whenFalse: inner.whenTrue };
  }
  if (test.k === 'binary') {
    if (test.op === '&&' || test.op === 'and') {
      const a = refinementsOf(analysis, env, test.left);
      const b = refinementsOf(analysis, env, test.right);
      return { whenTrue: [...a.whenTrue, ...b.whenTrue], whenFalse: [] };
    }
    // `a || b` is false only where both are: `if (!inside(p) || other) return;` proves inside(p) after.
    if (test.op === '||' || test.op === 'or') {
      const a = refinementsOf(analysis, env, test.left);
      const b = refinementsOf(analysis, env, test.right);
      return { whenTrue: [], whenFalse: [...a.whenFalse, ...b.whenFalse] };
    }
    if ((test.op === 'in' || test.op === 'not in') && test.left.k === 'const') {
      const rejected = rejection(analysis, test.left.value, test.right);
      return test.op === 'in' ? rejected : { whenTrue: rejected.whenFalse, whenFalse: rejected.whenTrue };
    }
    if (test.op === 'in' || test.op === 'not in') {
      const host = hostCheck(analysis, env, test.left);
      if (host) return test.op === 'in' ? { whenTrue: host, whenFalse: [] } : { whenTrue: [], whenFalse: host };
      const path = pathOf(test.left);
      // Membership in what the user sent proves nothing; only a list the code holds is an allow-list.
      if (!path || taintOf(evaluate(analysis, env, test.right))) return NONE;
      const found = [{ path, before: evaluate(analysis, env, test.left) }];
      return test.op === 'in' ? { whenTrue: found, whenFalse: [] } : { whenTrue: [], whenFalse: found };
    }
    if (['==', '===', '!=', '!=='].includes(test.op)) {
      const host = sameSite(analysis, env, test.left, test.right) ?? sameSite(analysis, env, test.right, test.left);
      if (host) return test.op.startsWith('=') ? { whenTrue: host, whenFalse: [] } : { whenTrue: [], whenFalse: host };
      const [variable, other] = test.right.k === 'const' ? [test.left, test.right] : [test.right, test.left];
      const path = pathOf(variable);
      if (!path || other.k !== 'const') return NONE;
      const equal = [{ path, value: constant(other.value) }];
      return test.op.startsWith('=') ? { whenTrue: equal, whenFalse: [] } : { whenTrue: [], whenFalse: equal };
    }
    return NONE;
  }
  if (test.k !== 'call') return NONE;
  const predicate = predicateCall(analysis, env, test);
  if (predicate) return predicate;
  const written = [test.callee, `_.${test.name}`];
  if ((test.name === 'contains' || test.name === 'includes') && test.args[0]?.k === 'const' && test.receiver)
    return rejection(analysis, test.args[0].value, test.receiver);
  // `x.equals("a")`: x is that constant where it holds.
  if (test.name === 'equals' && test.args[0]?.k === 'const') {
    const path = pathOf(test.receiver);
    return path ? { whenTrue: [{ path, value: constant(test.args[0].value) }], whenFalse: [] } : NONE;
  }
  const prefixed = prefixTest(analysis, env, test, written);
  if (prefixed) return prefixed;
  for (const guard of analysis.spec.guards) {
    if (!matchesAny(guard.calls, written)) continue;
    const subject = checked(guard.subject === 'receiver' ? test.receiver : test.args[guard.subject]);
    const host = subject ? hostCheck(analysis, env, subject) : undefined;
    if (host) return { whenTrue: host, whenFalse: [] };
    const path = pathOf(subject);
    if (!path || !subject) continue;
    const list = guard.subject === 'receiver' ? undefined : test.receiver;
    if (list && taintOf(evaluate(analysis, env, list))) continue;
    const before = evaluate(analysis, env, subject);
    if (guard.needsNormalized && !before.normalized) continue;
    return { whenTrue: [{ path, cwes: guard.cwes, before }], whenFalse: [] };
  }
  return NONE;
}

/**
 * A call of a predicate of this file whose body is one check of its parameters
 * (`function isSortColumn(v) { return SORTABLE.includes(v); }`, a TypeScript type guard): what
 * the check proves of a parameter, it proves of the argument given for it.
 */
function predicateCall(analysis: Analysis, env: Env, test: Extract<Expr, { k: 'call' }>): Refinements | undefined {
  if (
    test.receiver !== undefined &&
    !(test.receiver.k === 'name' && analysis.spec.selfNames.includes(test.receiver.name))
  )
    return undefined;
  const fn = analysis.functions.get(test.name)?.find((f) => f.params.length === test.args.length);
  const only = fn?.body.length === 1 ? fn.body[0] : undefined;
  if (!fn || only?.k !== 'return' || !only.value || analysis.stack.includes(fn)) return undefined;
  const argumentFor = new Map(fn.params.map((p, i) => [p.name, test.args[i]] as const));
  const translate = (refinements: Refinement[]): Refinement[] =>
    refinements.flatMap((r) => {
      const arg = argumentFor.get(r.path);
      const path = pathOf(arg);
      return arg && path ? [{ ...r, path, before: evaluate(analysis, env, arg) }] : [];
    });
  // The parameters are unknown in the caller's environment: the check reads only the code's own lists.
  const inner = refinementsOf(analysis, env, only.value);
  return { whenTrue: translate(inner.whenTrue), whenFalse: translate(inner.whenFalse) };
}

/** The prefixes whose test tells a path on this site from a URL: where it holds, or where it does not. */
const LOCAL_PREFIXES: Readonly<Record<string, { mark: LocalMark; holds: boolean }>> = {
  '/': { mark: 'slash', holds: true },
  '//': { mark: 'noAuthority', holds: false },
  '/\\': { mark: 'noBackslash', holds: false },
};

/**
 * `x.startsWith("/")`, `strings.HasPrefix(x, "//")`: what a redirect target's start is
 * (`Value.local`); undefined for another test or prefix, which the guards may still read.
 */
function prefixTest(
  analysis: Analysis,
  env: Env,
  test: Extract<Expr, { k: 'call' }>,
  written: string[],
): Refinements | undefined {
  for (const spec of analysis.spec.prefixTests) {
    if (!matchesAny(spec.calls, written)) continue;
    const subject = checked(spec.subject === 'receiver' ? test.receiver : test.args[spec.subject]);
    const prefix = test.args[spec.prefix];
    const path = pathOf(subject);
    const known = prefix?.k === 'const' && typeof prefix.value === 'string' ? LOCAL_PREFIXES[prefix.value] : undefined;
    if (!path || !subject || !known) return undefined;
    const before = evaluate(analysis, env, subject);
    const found = [{ path, mark: known.mark, before }];
    // Where the redirect writes this host before a path, `/\\host` is a path like any other.
    if (known.mark === 'noAuthority' && analysis.spec.redirectKeepsHost)
      found.push({ path, mark: 'noBackslash', before });
    return known.holds ? { whenTrue: found, whenFalse: [] } : { whenTrue: [], whenFalse: found };
  }
  return undefined;
}

/**
 * `parsed.netloc` / `url.getHost()` of a URL parsed from a variable: an allow-list check of it
 * makes that variable safe to request or redirect to.
 */
function hostCheck(analysis: Analysis, env: Env, expr: Expr): Refinement[] | undefined {
  const part = expr.k === 'attr' ? expr.name : expr.k === 'call' && expr.args.length === 0 ? expr.name : undefined;
  const object = expr.k === 'attr' ? expr.object : expr.k === 'call' ? expr.receiver : undefined;
  if (!part || !object || !analysis.spec.urlHosts.includes(part)) return undefined;
  const parsed = evaluate(analysis, env, object);
  const from = parsed.parsedFrom;
  // The parsed URL itself too, when it is a variable (`const url = new URL(...)`, then `fetch(url)`).
  const own = parsed.type === 'URL' ? pathOf(object) : undefined;
  const checked: Refinement[] = [
    ...(from ? [{ path: from, cwes: [601, 918] }] : []),
    ...(own ? [{ path: own, cwes: [601, 918], before: parsed }] : []),
  ];
  return checked.length > 0 ? checked : undefined;
}

/**
 * `url.origin === request.nextUrl.origin`, `u.hostname == "api.example.org"`: a parsed URL's
 * host equal to the request's own, or to a host the code wrote, keeps the URL where it holds.
 */
function sameSite(analysis: Analysis, env: Env, part: Expr, other: Expr): Refinement[] | undefined {
  // An empty host is no host the code wrote: `/\\evil.example` parses with none and leaves the site.
  const own =
    other.k === 'const'
      ? typeof other.value === 'string' && other.value !== ''
      : analysis.spec.ownUrls?.includes(dottedName(other));
  return own ? hostCheck(analysis, env, part) : undefined;
}

/** `"../" in x`: where it does not hold, x is safe for what that text would have broken. */
function rejection(analysis: Analysis, text: Constant, subject: Expr): Refinements {
  const path = pathOf(subject);
  if (!path) return NONE;
  const whenFalse: Refinement[] = [];
  const rule = analysis.spec.rejects.find((r) => r.text === text);
  if (rule) whenFalse.push({ path, cwes: rule.cwes });
  // A redirect target without a backslash cannot be read as `/\\host` (see `Value.local`).
  if (text === '\\') whenFalse.push({ path, mark: 'noBackslash' });
  return whenFalse.length > 0 ? { whenTrue: [], whenFalse } : NONE;
}

/** The environment with a branch's refinements applied. */
export function refine(env: Env, refinements: Refinement[]): Env {
  if (refinements.length === 0) return env;
  const out = new Map(env);
  for (const r of refinements) {
    if (r.mark) {
      const current = out.get(r.path) ?? r.before;
      if (!current) continue;
      const local = { ...current.local, [r.mark]: true as const };
      // Starts with `/`, not `//`, no backslash: a path on this site, wherever it came from.
      const onSite = local.slash && local.noAuthority && local.noBackslash;
      out.set(r.path, {
        ...current,
        local,
        ...(onSite ? { taint: clear(current.taint, [601]), rest: clear(current.rest, [601]) } : {}),
      });
    } else if (r.value) out.set(r.path, r.value);
    else {
      const current = out.get(r.path) ?? r.before;
      if (!current) continue;
      // A check clears request input; a value drawn from a weak generator stays what it is.
      if (r.cwes)
        out.set(r.path, { ...current, taint: clear(current.taint, r.cwes), rest: clear(current.rest, r.cwes) });
      else {
        // Found in a list the code holds: one of the code's own values, whatever it was before.
        const taint = clear(current.taint, undefined);
        const rest = clear(current.rest, undefined);
        out.set(r.path, { type: current.type, taint, rest, fixed: taint || rest ? undefined : true });
      }
    }
  }
  return out;
}
