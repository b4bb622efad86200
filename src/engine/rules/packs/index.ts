import { loadRules } from '../load-rules.js';
import type { Rule } from '../rule-schema.js';
import { goRules } from './go/index.js';
import { javaRules } from './java/index.js';
import { javascriptRules } from './javascript/index.js';
import { pythonRules } from './python/index.js';
import { rubyRules } from './ruby/index.js';

export { goRules, javaRules, javascriptRules, pythonRules, rubyRules };

/** Every pack, validated once when the engine loads: a broken rule fails the start, not a review. */
export const RULES: readonly Rule[] = loadRules([javascriptRules, pythonRules, goRules, javaRules, rubyRules]);
