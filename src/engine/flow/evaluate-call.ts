import { containerCall, newContainer, receiverPath, sectionMapCall } from './containers.js';
import { type Analysis, type Env, MAX_CALL_DEPTH, noteSink, recordFlow } from './context.js';
import { dottedName, evaluate, qualify, readElement, safeFor } from './evaluate.js';
import { foldMethod, truthy } from './fold.js';
import { callFunction } from './interpret.js';
import type { Expr, FunctionIR } from './ir.js';
import { lookup, matchesAny } from './qualified-name.js';
import {
  anyTaint,
  clear,
  constant,
  isFixed,
  isSafeFor,
  join,
  prefixOf,
  taintFor,
  taintOf,
  UNKNOWN,
  type Value,
} from './value.js';

type Call = Extract<Expr, { k: 'call' }>;

/** Calls that fill a pattern's placeholders: Java's, Go's, Python's, Ruby's. */
const FORMATS = new Set(['format', 'formatted', 'Sprintf', 'sprintf']);

/** The names a call may be known by: as written, through imports, and by its receiver's type. */
function namesOf(analysis: Analysis, call: Call, receiver: Value | undefined): string[] {
  if (call.isNew) return [`new ${call.callee}`, `new ${qualify(analysis, call.callee)}`];
  const names: string[] = [];
  if (call.callee) names.push(call.callee, qualify(analysis, call.callee));
  if (receiver?.type) names.push(`${receiver.type}.${call.name}`);
  // Matches a `*.name` pattern whatever the receiver is.
  if (call.receiver) names.push(`_.${call.name}`);
  return names;
}

/** Whether a command list runs a shell on a command string: `["sh", "-c", cmd]`, `["cmd.exe", "/c", cmd]`. */
function runsShell(shells: string[], command: Value): boolean {
  const [program, flag] = command.items ?? [];
  const name = program?.known ? String(program.constant).split(/[\\/]/).pop() : undefined;
  // A program known to be no shell reads `-c` as its own option (`ping -c 2 host`).
  if (name !== undefined) return shells.includes(name);
  if (flag?.known) return ['-c', '/c', '/C'].includes(String(flag.constant));
  // A program and its first word picked among the code's own constants (`cmd.exe /c` on
  // Windows, `sh -c` elsewhere) may well be a shell: its command is taken as one.
  return isFixed(program) && isFixed(flag);
}

/** The first element of a sequence, or the value itself when it is none. */
export const firstOf = (value: Value): Value => (value.items ? readElement(value, constant(0)) : value);

function sinkValues(
  analysis: Analysis,
  sink: Analysis['spec']['sinks'][number],
  receiver: Value | undefined,
  args: Value[],
  kwargs: Map<string, Value>,
): Value[] {
  if (sink.receiver) return receiver ? [receiver] : [];
  if (sink.programOnly) {
    // Several arguments are the command's words one by one (`new ProcessBuilder("sh", "-c", cmd)`).
    const command = args.length > 1 ? { items: args } : (args[0] ?? kwargs.get('args'));
    if (!command) return [];
    return runsShell(analysis.spec.shells, command) ? [command] : [firstOf(command)];
  }
  const positional = (sink.args ? sink.args.map((i) => args[i]) : args).flatMap((v) =>
    sink.optionsObject && (v?.keys || v?.items) && !v.taint ? (sink.kwargs ?? []).map((k) => v.keys?.get(k)) : [v],
  );
  const named = sink.args ? (sink.kwargs ?? []).map((k) => kwargs.get(k)) : [...kwargs.values()];
  const program = args[0];
  const shellArgs =
    sink.shellArgsAt !== undefined && program && runsShell(analysis.spec.shells, { items: [program] })
      ? [args[sink.shellArgsAt]]
      : [];
  const values = [...positional, ...named, ...shellArgs].filter((v): v is Value => v !== undefined);
  return sink.firstOfSequence ? values.map(firstOf) : values;
}

type Sink = Analysis['spec']['sinks'][number];

/** A sink's flag value (a cookie's Secure) and where it was set, if the sink has one. */
function flagOf(sink: Sink, args: Value[], kwargs: Map<string, Value>): Value | undefined {
  const flag = sink.flag;
  if (!flag) return undefined;
  const holder =
    (flag.kwarg ? kwargs.get(flag.kwarg) : undefined) ?? (flag.arg === undefined ? undefined : args[flag.arg]);
  return flag.prop ? holder?.props?.get(flag.prop) : holder;
}

/** Whether a sink applies to this call at all: its name, and the keyword and property conditions. */
function sinkApplies(
  analysis: Analysis,
  sink: Sink,
  call: Call,
  names: string[],
  receiver: Value | undefined,
  args: Value[],
  kwargs: Map<string, Value>,
) {
  if (!matchesAny(sink.calls, names) && !(sink.callPattern && namePattern(sink.callPattern).test(call.name)))
    return false;
  if (sink.requireKwarg !== undefined) {
    const flag = kwargs.get(sink.requireKwarg);
    if (!flag?.known || !flag.constant) return false;
  }
  const unless = sink.unlessKwarg;
  const unlessExpr = unless ? call.kwargs[unless.name] : undefined;
  if (
    unless &&
    unlessExpr &&
    (unless.values.length === 0 || matchesAny(unless.values, [qualify(analysis, dottedName(unlessExpr))]))
  )
    return false;
  const prop = sink.requireProp;
  if (prop) {
    const holder =
      prop.arg === 'receiver' ? receiver : ((prop.kwarg ? kwargs.get(prop.kwarg) : undefined) ?? args[prop.arg]);
    const flag = holder?.props?.get(prop.prop);
    if (!flag?.known || !flag.constant) return false;
  }
  if (sink.unlessReceiverType && receiver?.type && matchesAny(sink.unlessReceiverType, [receiver.type])) return false;
  return true;
}

/**
 * Checks the call against the sinks (request input) and the scoped sinks (scoped sources only);
 * true when one of the former matched: its result is then not the input.
 */
function checkSinks(
  analysis: Analysis,
  call: Call,
  names: string[],
  receiver: Value | undefined,
  args: Value[],
  kwargs: Map<string, Value>,
): boolean {
  let matched = false;
  const { sinks, scoped } = analysis.spec;
  for (const [sink, isScoped] of [
    ...sinks.map((s) => [s, false] as const),
    ...(scoped?.sinks ?? []).map((s) => [s, true] as const),
  ]) {
    if (!sinkApplies(analysis, sink, call, names, receiver, args, kwargs)) continue;
    if (!isScoped) matched = true;
    const flag = flagOf(sink, args, kwargs);
    // Set, to a value not known here: a decision made elsewhere (configuration, the scheme).
    if (flag && (!flag.known || truthy(flag.constant ?? null))) continue;
    if (flag) {
      // Turned off on purpose: a finding whatever the value, naming where.
      recordFlow(analysis, {
        sinkLine: call.line,
        sourceLine: flag.setAt ?? call.line,
        sourceDescription: FLAG_OFF,
        cwe: sink.cwe,
        sinkKind: sink.kind,
      });
      continue;
    }
    const values = sinkValues(analysis, sink, receiver, args, kwargs);
    // Safe: fixed, sanitized for this CWE, or (for a sink that allows it) a URL whose host the code wrote.
    const safe = (value: Value) =>
      isSafeFor(value, sink.cwe) || (sink.unlessFixedHost === true && FIXED_HOST.test(prefixOf(value) ?? ''));
    // A call given nothing where the sink is dangerous (`order(id: :desc)`) takes no input there.
    const given = values.length > 0 || call.args.length === 0;
    noteSink(analysis, call.line, sink.cwe, given && values.every(safe));
    for (const [i, value] of values.entries()) {
      const taint = taintFor(value, sink.cwe, isScoped);
      if (!taint) continue;
      if (sink.scalarOnly && (value.items || value.keys)) continue;
      if (sink.unlessFixedHost && FIXED_HOST.test(prefixOf(value) ?? '')) continue;
      if (sink.unlessObject && value.type !== undefined) continue;
      if (sink.requirePrefix !== undefined && !namePattern(sink.requirePrefix).test(prefixOf(value) ?? '')) continue;
      // The sink's own positions when it names them, so the comment names the right argument.
      const argExpr = sink.receiver || sink.programOnly ? undefined : call.args[sink.args ? (sink.args[i] ?? -1) : i];
      recordFlow(analysis, {
        sinkLine: call.line,
        sourceLine: taint.line,
        sourceDescription: taint.description,
        cwe: sink.cwe,
        sinkKind: sink.kind,
        variable: taint.variable ?? (argExpr?.k === 'name' ? argExpr.name : undefined),
        ...(sink.reportAtUse ? { atUse: call.name } : {}),
        ...(sink.cwe === 601 && value.local?.slash && value.local.noAuthority ? { slashChecked: true } : {}),
      });
      break;
    }
  }
  return matched;
}

/** The source description of a flow whose sink's flag was turned off (`setSecure(false)`). */
export const FLAG_OFF = 'its flag turned off';

const patterns = new Map<string, RegExp>();
/** A spec's regular expression, compiled once (case-insensitive). */
export const namePattern = (source: string): RegExp => {
  let re = patterns.get(source);
  if (!re) {
    re = new RegExp(source, 'i');
    patterns.set(source, re);
  }
  return re;
};

/** A URL whose scheme and host are fixed (`https://api.example/`), or a path on this site (`/home`). */
// A host holding a template's placeholder (`https://{host}/`) is filled in later: not fixed.
const FIXED_HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#{}]+[/?#]|\/(?![/\\]))/i;

/** A function or method of this file the call reaches, if the analysis may follow it. */
function localTarget(analysis: Analysis, call: Call, receiver: Value | undefined): FunctionIR | undefined {
  if (call.isNew) return undefined;
  // First whether the file has a function of that name at all: most calls name none, and the
  // file's classes are read from the tree on first use.
  const candidates = analysis.functions.get(call.name) ?? [];
  if (candidates.length === 0) return undefined;
  const r = call.receiver;
  const local =
    r === undefined ||
    // Go names a method's receiver freely (`func (h *Handler) ...`): its type tells it is this file's.
    (receiver?.type !== undefined && analysis.classes.has(receiver.type)) ||
    (r.k === 'name' && (analysis.spec.selfNames.includes(r.name) || analysis.classes.has(r.name))) ||
    (r.k === 'call' && r.isNew === true && analysis.classes.has(r.callee.split('.').pop() ?? ''));
  if (!local) return undefined;
  const target =
    candidates.find(
      (f) => f.params.filter((p) => !analysis.spec.selfNames.includes(p.name)).length === call.args.length,
    ) ?? candidates[0];
  if (!target || analysis.stack.includes(target) || analysis.stack.length >= MAX_CALL_DEPTH) return undefined;
  return target;
}

/** `parser.setFeature(feature_external_ges, True)`: the receiver keeps the flag under its name. */
function setProp(
  env: Env,
  call: Call,
  receiver: Value,
  args: Value[],
  containers: Analysis['spec']['containers'],
): void {
  const flag = call.args[0];
  const name = flag?.k === 'const' ? String(flag.value) : flag ? dottedName(flag).split('.').pop() : undefined;
  const path = receiverPath(call.receiver, containers);
  if (!name || !path || !args[1]) return;
  env.set(path, { ...receiver, props: new Map(receiver.props ?? []).set(name, args[1]) });
}

/**
 * What a pure call's result is made of: its arguments, and its receiver unless that is a module
 * (`base64.b64decode(x)`: `base64` is no variable of the code).
 */
function pureInputs(env: Env, call: Call, receiver: Value | undefined, args: Value[], kwargs: Map<string, Value>) {
  const r = call.receiver;
  const isModule = r !== undefined && (r.k === 'name' || r.k === 'attr') && !env.has(dottedName(r));
  const inputs = [...args, ...kwargs.values()];
  return r && !isModule ? [receiver, ...inputs] : inputs.length > 0 ? inputs : [undefined];
}

/**
 * The constant pattern a formatting call fills: its receiver (`"<p>{}".format(x)`, `"%s".formatted(x)`),
 * or the first argument of a function (`String.format`, `fmt.Sprintf`, `util.format`, Ruby's
 * `format`); not the argument of a value's own `format` (`dayjs(at).format("YYYY")` formats the
 * date: a receiver that holds input or has a type is such a value).
 */
function formatPattern(receiver: Value | undefined, first: Value | undefined): string | undefined {
  const text = (v: Value | undefined) => (v?.known && typeof v.constant === 'string' ? v.constant : undefined);
  const aValue = receiver !== undefined && (taintOf(receiver) !== undefined || receiver.type !== undefined);
  return text(receiver) ?? (aValue ? undefined : text(first));
}

/** The scheme of an absolute URL (`https:`), and a path on this site (`/home`, not `//` or `/\\`). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const SITE_PATH = /^\/(?![/\\])/;

/**
 * A URL parsed from text (`new URL(text, base)`, `urlparse(text)`): input if the text is, or the
 * base unless it is the request's own URL (`new URL(path, request.url)`: only the path can move
 * the host). Its constant start is the text's (`new URL("https://api.example/" + p)` keeps that
 * host); a path the code wrote resolved against another base takes the base's
 * (`new URL('/meta.json', site)`), and text that may be a whole URL none. What checks found of
 * the text's start holds for the URL (`new URL(safe, req.url)`).
 */
function parsedUrl(ownUrls: readonly string[], call: Call, args: Value[], inputs: (Value | undefined)[]): Value {
  const [text, base] = call.args;
  const ownBase = base !== undefined && ownUrls.includes(dottedName(base));
  const own = args[0] ? prefixOf(args[0]) : undefined;
  const whole = base === undefined || ownBase || SCHEME.test(own ?? '');
  const prefix = whole ? own : SITE_PATH.test(own ?? '') && args[1] ? prefixOf(args[1]) : undefined;
  const variable = text?.k === 'name' || text?.k === 'attr' ? dottedName(text) : '';
  const local = args[0]?.local;
  return {
    taint: anyTaint(ownBase ? inputs.filter((v) => v !== args[1]) : inputs),
    parsedFrom: variable || undefined,
    type: 'URL',
    prefix,
    ...(local ? { local } : {}),
  };
}

/** A call's value: sinks are checked on its arguments, then sanitizers, sources, this file's functions and containers decide it. */
export function evaluateCall(analysis: Analysis, env: Env, call: Call): Value {
  const { spec } = analysis;
  const receiver = call.receiver ? evaluate(analysis, env, call.receiver) : undefined;
  const args = call.args.map((a) => evaluate(analysis, env, a));
  const kwargs = new Map(Object.entries(call.kwargs).map(([k, e]) => [k, evaluate(analysis, env, e)] as const));
  const names = namesOf(analysis, call, receiver);
  const match = (patterns: string[]) => matchesAny(patterns, names);
  // A sink's result (an open file, a query's rows, a response) is not the input: the flow was reported there.
  const sunk = checkSinks(analysis, call, names, receiver, args, kwargs);
  const inputs = [receiver, ...args, ...kwargs.values()];

  for (const sanitizer of spec.sanitizers) {
    if (!match(sanitizer.calls)) continue;
    const taint = clear(anyTaint(inputs), sanitizer.cwes);
    // A conversion that clears every CWE (a number) leaves nothing anyone could shape, whatever went in.
    if (!sanitizer.cwes) return taint ? { taint } : { fixed: true };
    return { taint, safeFor: new Set(sanitizer.cwes) };
  }
  const named = spec.sanitizerNames.find((s) => namePattern(s.pattern).test(call.name));
  if (named) {
    const taint = clear(anyTaint(inputs), named.cwes);
    return { taint, safeFor: new Set(named.cwes) };
  }
  // What `new X(...)` makes is an X, a sink's too (`new ProcessBuilder().command(argv)`).
  const type =
    lookup(spec.returns, names) ??
    (spec.scoped ? lookup(spec.scoped.returns, names) : undefined) ??
    (call.isNew ? call.callee.split('.').pop() : undefined);
  for (const source of spec.sources) {
    if (source.calls && match(source.calls))
      return { taint: { line: call.line, description: source.description, cleared: safeFor(source.safeFor) }, type };
  }
  const scoped = spec.scoped?.sources.find((s) => match(s.calls));
  if (scoped) {
    const taint = { line: call.line, description: scoped.description, feeds: scoped.feeds };
    if (scoped.fills === undefined) return { taint, type };
    // `random.nextBytes(buf)`: the buffer now holds the value.
    const path = receiverPath(call.args[scoped.fills], spec.containers);
    const filled = path ? env.get(path) : undefined;
    if (path) env.set(path, { ...filled, taint: join(filled?.taint, { ...taint, variable: path }) });
    return UNKNOWN;
  }
  if (match(spec.responses)) return { type: 'Response' };
  if (match(spec.urlParsers) && call.args[0]) return parsedUrl(spec.ownUrls ?? [], call, args, inputs);
  if (sunk) return type ? { type } : UNKNOWN;
  const prop = receiver && spec.scoped ? lookup(spec.scoped.propSetters, names) : undefined;
  if (receiver && prop) {
    // `cookie.setSecure(false)`: the cookie remembers it (and where) for the sink that adds it.
    const path = receiverPath(call.receiver, spec.containers);
    const props = new Map(receiver.props ?? []).set(prop, { ...(args[0] ?? UNKNOWN), setAt: call.line });
    if (path) env.set(path, { ...receiver, props });
    return UNKNOWN;
  }
  const target = localTarget(analysis, call, receiver);
  if (target) {
    analysis.callLines ??= [];
    const lines = analysis.callLines;
    lines.push(call.line);
    const result = callFunction(analysis, target, args, kwargs);
    lines.pop();
    return result;
  }
  const made = newContainer(spec.containers, args, match);
  if (made) return made;
  if (receiver && spec.propSetters && match(spec.propSetters)) {
    setProp(env, call, receiver, args, spec.containers);
    return UNKNOWN;
  }
  if (receiver && match(spec.appendsTo)) {
    const path = receiverPath(call.receiver, spec.containers);
    const updated = { ...receiver, taint: join(receiver.taint, anyTaint(args)) };
    if (path) env.set(path, updated);
    return UNKNOWN;
  }
  if (receiver) {
    const section = spec.sectionMaps && sectionMapCall(spec.sectionMaps, env, call, receiver, args, spec.containers);
    if (section) return section;
    const result = containerCall(spec.containers, env, call, receiver, args);
    if (result) return result;
    if (receiver.known && args.every((a) => a.known)) {
      const folded = foldMethod(
        call.name,
        receiver.constant ?? null,
        args.map((a) => a.constant ?? null),
      );
      if (folded !== undefined) return constant(folded);
    }
  }
  if (match(spec.scalarResults)) return type ? { type } : UNKNOWN;
  const taint = anyTaint(inputs);
  const out: Value = { taint, type };
  // An object made from a string (`new URL(text)`) starts with what the text starts with.
  const first = args[0];
  if ((call.isNew || match(spec.urlBuilders?.starts ?? [])) && first) out.prefix = prefixOf(first);
  // `builder.queryParam("q", city).build().toUri()`: the query or path changes, never the host.
  if (receiver && spec.urlBuilders?.keeps.includes(call.name)) out.prefix = prefixOf(receiver);
  // A list joined into text starts with its first element: `['<p>', name].join('')`,
  // `"".join(parts)`, `strings.Join(parts, "")`.
  if (call.name === 'join' || call.name === 'Join') {
    const head = (receiver?.items ?? first?.items)?.[0];
    if (head) out.prefix = prefixOf(head);
  }
  // Text formatted from a constant pattern starts with the pattern's text before its first
  // placeholder: `String.format("<p>%s", x)`, `fmt.Sprintf(...)`, `"<p>{}".format(x)`.
  const pattern = FORMATS.has(call.name) ? formatPattern(receiver, first) : undefined;
  if (pattern !== undefined) out.prefix = pattern.split(/[%{]/)[0];
  if (match(spec.normalizers)) out.normalized = true;
  // A constructor's keyword flags (`XMLParser(resolve_entities=True)`) decide some sinks later.
  if (kwargs.size > 0) out.props = kwargs;
  if (!taint && spec.pure && match(spec.pure) && pureInputs(env, call, receiver, args, kwargs).every(isFixed))
    out.fixed = true;
  // A method of the code's own value with the code's own arguments: `[page.to_i, 1].max`.
  if (!taint && receiver && isFixed(receiver) && [...args, ...kwargs.values()].every(isFixed)) out.fixed = true;
  return out;
}
