import { createRequire } from 'node:module';
import { Lang, parse, registerDynamicLanguage, type SgNode, type SgRoot } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import type { Rule } from './rule-schema.js';

let registered = false;

/**
 * ast-grep wants every dynamic language registered in one call, once per process: done when the
 * first file in one of them is parsed, so that reviewing JavaScript alone loads none of their
 * grammars. The packages are CommonJS, loaded with `require` to stay synchronous.
 */
function registerLanguages(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  registerDynamicLanguage({
    python: require('@ast-grep/lang-python'),
    go: require('@ast-grep/lang-go'),
    java: require('@ast-grep/lang-java'),
    ruby: require('@ast-grep/lang-ruby'),
  });
  registered = true;
}

const BUILT_IN: Partial<Record<Language, Lang>> = {
  javascript: Lang.JavaScript,
  typescript: Lang.TypeScript,
  tsx: Lang.Tsx,
};

/** Parses source text of a language; tree-sitter tolerates broken code, so partial hunks parse too. */
export function parseSource(language: Language, source: string): SgRoot {
  const builtIn = BUILT_IN[language];
  if (builtIn !== undefined) return parse(builtIn, source);
  registerLanguages();
  return parse(language, source);
}

/** One ast-grep search: a rule, the constraints on its metavariables, and local utility rules. */
export interface Query {
  rule: Record<string, unknown>;
  constraints?: Record<string, unknown> | undefined;
  utils?: Record<string, unknown> | undefined;
}

/** Every node of the tree that the query matches, in tree order; throws when it does not compile. */
export function findAll(root: SgNode, query: Query): SgNode[] {
  return root.findAll({
    rule: query.rule as never,
    ...(query.constraints ? { constraints: query.constraints as never } : {}),
    ...(query.utils ? { utils: query.utils as never } : {}),
  });
}

/** Every node of the tree that the rule matches. */
export function matchRule(root: SgNode, rule: Pick<Rule, 'rule' | 'constraints'>): SgNode[] {
  return findAll(root, { rule: rule.rule, constraints: rule.constraints });
}
