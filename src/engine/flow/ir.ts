/**
 * The flow analysis' vocabulary: each language adapter turns its tree-sitter nodes into these few
 * statement and expression forms, and the interpreter knows nothing else. Lines are 1-based.
 */

export type Constant = string | number | boolean | null;

export type Expr =
  | { k: 'const'; value: Constant; line: number }
  /** A variable, a parameter, a module or class name. */
  | { k: 'name'; name: string; line: number }
  | { k: 'attr'; object: Expr; name: string; line: number }
  | { k: 'index'; object: Expr; index: Expr; line: number }
  | {
      k: 'call';
      /** The called name as written (`Integer.parseInt`, `os.path.join`, `exec`); '' when computed. */
      callee: string;
      /** The method's own name (`parseInt`), or the constructor's type name for `new`. */
      name: string;
      receiver?: Expr | undefined;
      args: Expr[];
      kwargs: Record<string, Expr>;
      isNew?: boolean | undefined;
      line: number;
    }
  | { k: 'binary'; op: string; left: Expr; right: Expr; line: number }
  | { k: 'unary'; op: string; arg: Expr; line: number }
  | { k: 'cond'; test: Expr; whenTrue: Expr; whenFalse: Expr; line: number }
  | { k: 'list'; items: Expr[]; line: number }
  /** A map, or a struct literal keyed by field name; `type` when written (`http.Client{...}`). */
  | { k: 'map'; entries: [Expr, Expr][]; line: number; type?: string | undefined }
  /** An interpolated string (f-string, template literal): taint of any part. */
  | { k: 'concat'; parts: Expr[]; line: number }
  /** A form the adapter does not model: taint of any part flows to it (conservative). */
  | { k: 'opaque'; parts: Expr[]; line: number };

export type Target =
  | { k: 'name'; name: string; type?: string | undefined }
  | { k: 'index'; object: Expr; index: Expr }
  | { k: 'attr'; object: Expr; name: string }
  | { k: 'tuple'; items: Target[] };

export interface Case {
  /** Values the case matches; empty for `default` / `case _`. */
  tests: Expr[];
  body: Stmt[];
  /** Java's `case 1:` without `break` runs on into the next group. */
  fallsThrough: boolean;
}

export type Stmt =
  | { k: 'assign'; target: Target; value: Expr; op?: string | undefined; line: number }
  /** A declaration without a value: records the declared type. */
  | { k: 'declare'; name: string; type: string; line: number }
  | { k: 'expr'; expr: Expr; line: number }
  | { k: 'if'; test: Expr; whenTrue: Stmt[]; whenFalse: Stmt[]; line: number }
  | { k: 'switch'; subject: Expr; cases: Case[]; line: number }
  /** A loop; `target`/`iter` for a for-each (each element of `iter` is written to `target`). */
  | {
      k: 'loop';
      target?: Target | undefined;
      iter?: Expr | undefined;
      test?: Expr | undefined;
      body: Stmt[];
      line: number;
    }
  | { k: 'return'; value?: Expr | undefined; line: number }
  | { k: 'raise'; line: number }
  | { k: 'block'; body: Stmt[]; line: number };

export interface Param {
  name: string;
  /** The declared type, when written (`HttpServletRequest`, `str`). */
  type?: string | undefined;
  /** Annotation or default-value markers (`RequestParam`, `Query`), as written. */
  markers: string[];
  line: number;
}

export interface FunctionIR {
  name: string;
  /** The enclosing class, if a method. */
  owner?: string | undefined;
  readonly params: Param[];
  /** Decorators or annotations on the function, as written (`app.route`, `GetMapping`). */
  markers: string[];
  /** Read from the tree on first use: only functions that read input, and their callees, are. */
  readonly body: Stmt[];
  /** The function's source text, to tell cheaply whether it may read request input. */
  text: string;
  line: number;
}

/**
 * The function with its parameters and body read from the tree once, when first asked for; its
 * owner and markers too when given as readers (each costs native calls walking the tree, and most
 * functions of a file are never run: a language without routes never asks for markers).
 */
export function lazily(
  fn: Omit<FunctionIR, 'body' | 'params' | 'owner' | 'markers'> & Partial<Pick<FunctionIR, 'owner' | 'markers'>>,
  read: {
    params: () => Param[];
    body: () => Stmt[];
    owner?: (() => string | undefined) | undefined;
    markers?: (() => string[]) | undefined;
  },
): FunctionIR {
  let params: Param[] | undefined;
  let body: Stmt[] | undefined;
  const { owner, markers } = read;
  if (owner) {
    let read = false;
    let value: string | undefined;
    const get = (): string | undefined => {
      if (!read) {
        value = owner();
        read = true;
      }
      return value;
    };
    Object.defineProperty(fn, 'owner', { get, enumerable: true });
  }
  if (markers) {
    let value: string[] | undefined;
    Object.defineProperty(fn, 'markers', { get: () => (value ??= markers()), enumerable: true });
  }
  Object.defineProperty(fn, 'params', { get: () => (params ??= read.params()), enumerable: true });
  return Object.defineProperty(fn, 'body', { get: () => (body ??= read.body()), enumerable: true }) as FunctionIR;
}

export interface FileIR {
  functions: FunctionIR[];
  /** Statements at module or class level (globals, fields), run before each function. */
  globals: Stmt[];
  classes: string[];
  /** The enums the file declares, where the language has them (Java). */
  enums?: string[] | undefined;
  /** Short names bound by imports to their qualified names (`Popen` -> `subprocess.Popen`). */
  aliases: Map<string, string>;
}
