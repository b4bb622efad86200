import { type Rule, ruleProblems } from './rule-schema.js';

/** A pack that does not validate: every problem at once, each naming the rule and the field. */
export class RulePackError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid rule pack:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'RulePackError';
  }
}

function ruleName(raw: unknown, index: number): string {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : `#${index} (no id)`;
}

/**
 * Validates rule packs (arrays of rules) and flattens them: a malformed or duplicated rule fails
 * at start, with the rule's id and the field, never in the middle of a review.
 */
export function loadRules(packs: unknown[]): Rule[] {
  const problems: string[] = [];
  const rules: Rule[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (const pack of packs) {
    const entries = Array.isArray(pack) ? pack : [pack];
    for (const raw of entries) {
      const name = ruleName(raw, index);
      index += 1;
      const found = ruleProblems(raw);
      if (found.length > 0) {
        for (const { field, message } of found) problems.push(`${name}: ${field || '(rule)'}: ${message}`);
        continue;
      }
      const rule = raw as Rule;
      if (seen.has(rule.id)) {
        problems.push(`${name}: id: duplicate rule id`);
        continue;
      }
      seen.add(rule.id);
      rules.push(rule);
    }
  }
  for (const rule of rules) {
    if (rule.deferTo !== undefined && !seen.has(rule.deferTo))
      problems.push(`${rule.id}: deferTo: names no rule of the packs`);
  }
  if (problems.length > 0) throw new RulePackError(problems);
  return rules;
}
