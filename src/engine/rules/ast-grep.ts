import go from '@ast-grep/lang-go';
import java from '@ast-grep/lang-java';
import python from '@ast-grep/lang-python';
import ruby from '@ast-grep/lang-ruby';
import { Lang, parse, registerDynamicLanguage, type SgNode, type SgRoot } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import type { Rule } from './rule-schema.js';

let registered = false;

/** ast-grep wants every dynamic language registered in one call, once per process. */
function registerLanguages(): void {
  if (registered) return;
  registerDynamicLanguage({ python, go, java, ruby });
  registered = true;
}

const BUILT_IN: Partial<Record<Language, Lang>> = {
  javascript: Lang.JavaScript,
  typescript: Lang.TypeScript,
  tsx: Lang.Tsx,
};

/** Parses source text of a language; tree-sitter tolerates broken code, so partial hunks parse too. */
export function parseSource(language: Language, source: string): SgRoot {
  registerLanguages();
  return parse(BUILT_IN[language] ?? language, source);
}

/** Every node of the tree that the rule matches. */
export function matchRule(root: SgNode, rule: Pick<Rule, 'rule' | 'constraints'>): SgNode[] {
  return root.findAll({
    rule: rule.rule as never,
    ...(rule.constraints ? { constraints: rule.constraints as never } : {}),
  });
}
