/**
 * Metavariables of a pattern renamed with a prefix (`$A` -> `$R3_A`, `$$$ARGS` -> `$$$R3_ARGS`),
 * so that rules searched together in one ast-grep query never share a capture: in one query, a
 * metavariable bound by one rule would otherwise have to match the same text in another.
 *
 * Names starting with `_` are left alone: ast-grep does not capture them (`$_` matches anything
 * each time), and a prefix would make them capturing. `$$$` without a name has nothing to rename.
 */
const METAVAR = /\$(\$\$)?([A-Z_][A-Z0-9_]*)/g;

/** The name a rule's metavariable has once its rule's patterns are prefixed. */
export function prefixedName(name: string, prefix: string): string {
  return name.startsWith('_') ? name : `${prefix}${name}`;
}

export function prefixMetavars(pattern: string, prefix: string): string {
  return pattern.replace(
    METAVAR,
    (_all, multi: string | undefined, name: string) => `$${multi ?? ''}${prefixedName(name, prefix)}`,
  );
}
