import { loadRules } from '../load-rules.js';
import type { Rule } from '../rule-schema.js';
import { goRules } from './go.js';
import { javaRules } from './java.js';
import { javascriptRules } from './javascript.js';
import { pythonRules } from './python.js';
import { rubyRules } from './ruby.js';

export { goRules, javaRules, javascriptRules, pythonRules, rubyRules };

/** Every pack, validated once when the engine loads: a broken rule fails the start, not a review. */
export const RULES: readonly Rule[] = loadRules([javascriptRules, pythonRules, goRules, javaRules, rubyRules]);
