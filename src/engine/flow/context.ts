import type { FlowSpec, ReturnSinkSpec } from './flow-spec.js';
import type { FunctionIR } from './ir.js';
import type { Value } from './value.js';

/** A tainted value reaching a sink: reported on the sink's line, naming the source's. */
export interface TaintFlow {
  sinkLine: number;
  sourceLine: number;
  /** What the source reads: 'a request parameter', 'the query string'. */
  sourceDescription: string;
  cwe: number;
  /** What the sink does: 'SQL query', 'shell command'. */
  sinkKind: string;
  /** The variable the source was stored in, or the sink's argument, when it has a name. */
  variable?: string | undefined;
  /** For a sink inside a function of the file, the line of the outermost call that reached it. */
  callLine?: number | undefined;
  /**
   * The sink builds a query another call runs (its name: `text`): reported where the variable
   * it is stored in is used.
   */
  atUse?: string | undefined;
  /**
   * A redirect target checked to start with `/` and not `//`, with no check for a backslash:
   * `/\\host` still leaves the site in a browser, but the check stops the plain attack.
   */
  slashChecked?: boolean | undefined;
}

/** Variables in scope: names, and `this.field`/`self.attr` paths, to their values. */
export type Env = Map<string, Value>;

/** One file's analysis: the spec, its functions by name, and the flows found so far. */
export interface Analysis {
  spec: FlowSpec;
  functions: Map<string, FunctionIR[]>;
  classes: Set<string>;
  /** Short names bound by imports to their qualified names (`Popen` -> `subprocess.Popen`). */
  aliases: Map<string, string>;
  flows: Map<string, TaintFlow>;
  /** Module-level variables and class fields, the start of every function's environment. */
  globals: Env;
  /** Functions being evaluated, innermost last: bounds the depth and stops recursion. */
  stack: FunctionIR[];
  /** Lines of the calls into `stack`'s functions, outermost first. */
  callLines?: number[] | undefined;
  /** Work left before the file is given up on (hostile or huge inputs). */
  budget: { steps: number };
  /**
   * Per sink (`line:cwe`), whether every value that reached it was fixed (see `isFixed`), seen at
   * least once from the start of a function; false once anything else did.
   */
  constantSinks: Map<string, boolean>;
}

/** A function call nests at most this deep: a helper's helper's helper is still followed. */
export const MAX_CALL_DEPTH = 4;

/** The frame of the function being evaluated: what its `return`s gave. */
export interface Frame {
  returns: Value[];
  /** The function, for a route's return sink; absent at module level. */
  fn?: FunctionIR | undefined;
  /** What a request handler's return is a sink for (none for another function). */
  returnSinks?: ReturnSinkSpec[] | undefined;
  /** When set, the environment at each `return` is added (a constructor's fields are read after it). */
  exits?: Env[] | undefined;
}

/**
 * A sink evaluated with fixed values or not. Only a function run from its own start proves one: a
 * helper followed from one caller with constants may be called elsewhere with anything.
 */
export function noteSink(analysis: Analysis, line: number, cwe: number, fixed: boolean): void {
  const key = `${line}:${cwe}`;
  if (!fixed) analysis.constantSinks.set(key, false);
  else if (analysis.stack.length <= 1 && !analysis.constantSinks.has(key)) analysis.constantSinks.set(key, true);
}

export function recordFlow(analysis: Analysis, flow: TaintFlow): void {
  const key = `${flow.sinkLine}:${flow.cwe}`;
  const callLine = analysis.callLines?.[0];
  if (!analysis.flows.has(key)) analysis.flows.set(key, callLine === undefined ? flow : { ...flow, callLine });
}
