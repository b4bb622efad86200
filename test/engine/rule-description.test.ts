import { describe, expect, it } from 'vitest';
import { firstSentence, ruleDescription } from '../../src/engine/rule-description.js';
import { RULES } from '../../src/engine/rules/packs/index.js';
import { SECRET_RULE_DESCRIPTIONS } from '../../src/engine/secrets/secret-rule-descriptions.js';
import { TOKEN_RULES } from '../../src/engine/secrets/token-rules.js';

describe('ruleDescription: what a rule detects, from the rule, not from a finding', () => {
  it("a pack rule's is the first sentence of its message", () => {
    const sql = RULES.find((r) => r.id === 'js.sql-injection');
    expect(sql?.message).toBeDefined();
    expect(ruleDescription('js.sql-injection')).toBe(firstSentence(sql?.message ?? ''));
    expect(ruleDescription('js.sql-injection')).toBe(
      'SQL built by interpolating or concatenating values is open to SQL injection: pass the values as query parameters (placeholders) instead.',
    );
  });

  it('the first sentence does not end at an abbreviation', () => {
    expect(firstSentence('Escape the value (e.g. `he.encode(x)`) first. Then render it.')).toBe(
      'Escape the value (e.g. `he.encode(x)`) first.',
    );
    expect(firstSentence('Any method, i.e. remote code execution!  More.')).toBe(
      'Any method, i.e. remote code execution!',
    );
    expect(firstSentence('No full stop at all')).toBe('No full stop at all');
  });

  it('flow rules, secrets, the complexity rule and the model have fixed descriptions', () => {
    expect(ruleDescription('py.flow.sql-injection')).toBe(
      'SQL injection: a value from outside the program reaches the sink unchecked.',
    );
    expect(ruleDescription('java.flow.ssrf')).toBe(
      'Server-side request forgery: a value from outside the program reaches the sink unchecked.',
    );
    expect(ruleDescription('secrets.url-credentials')).toBe('A password written into a URL or connection string.');
    expect(ruleDescription('general.complex-function')).toBe(
      'A function the change wrote with a cyclomatic complexity above the threshold.',
    );
    expect(ruleDescription('llm.security')).toBe("A security comment from the model's review.");
    expect(ruleDescription('js.no-such-rule')).toBeUndefined();
  });

  it('every rule the engine has is described', () => {
    const ids = [
      ...RULES.map((r) => r.id),
      ...TOKEN_RULES.map((r) => r.ruleId),
      ...Object.keys(SECRET_RULE_DESCRIPTIONS),
    ];
    for (const id of ids) expect(ruleDescription(id), id).toMatch(/^\S.{8,}[.!?]$/s);
    for (const id of ['secrets.private-key', 'secrets.url-credentials', 'secrets.generic-credential']) {
      expect(SECRET_RULE_DESCRIPTIONS[id], id).toBeDefined();
    }
  });
});
