import { FINDING_TYPES } from './finding-types.js';
import { flowRuleDescriptions } from './flow/flow-findings.js';
import { RULES } from './rules/packs/index.js';
import { SECRET_RULE_DESCRIPTIONS } from './secrets/secret-rule-descriptions.js';

/** Full stops that end an abbreviation, not a sentence: "(e.g. `x`)", "i.e. any method". */
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs)\.$/i;

/** A pack rule's message says what is wrong first; its first sentence names what the rule detects. */
export function firstSentence(message: string): string {
  const text = message.trim();
  for (const end of text.matchAll(/[.!?](?=\s|$)/g)) {
    const sentence = text.slice(0, end.index + 1);
    if (!ABBREVIATION.test(sentence)) return sentence;
  }
  return text;
}

const DESCRIPTIONS: ReadonlyMap<string, string> = new Map([
  ...RULES.map((rule): [string, string] => [rule.id, firstSentence(rule.message)]),
  ...Object.entries(flowRuleDescriptions()),
  ...Object.entries(SECRET_RULE_DESCRIPTIONS),
  ['general.complex-function', 'A function the change wrote with a cyclomatic complexity above the threshold.'],
  ...FINDING_TYPES.map((type): [string, string] => [`llm.${type}`, `A ${type} comment from the model's review.`]),
]);

/**
 * What the rule with this id detects, independent of any one finding (whose message names the
 * variable, the host, the line); undefined for an id the engine does not have.
 */
export function ruleDescription(ruleId: string): string | undefined {
  return DESCRIPTIONS.get(ruleId);
}
