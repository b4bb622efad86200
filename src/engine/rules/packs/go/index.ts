import type { Rule } from '../../rule-schema.js';
import {
  deferInLoopRule,
  emptyErrorCheckRule,
  errorReturnNilRule,
  ignoredErrorRule,
  ignoredWriteErrorRule,
  offByOneChunkRule,
  offByOneMixedBoundsRule,
  offByOneReverseRule,
  offByOneRule,
  offByOneWindowRule,
  selfComparisonRule,
  unreachableCodeRule,
} from './bugs.js';
import { decodeInvariantInLoopRule, queryInLoopRule, regexpInLoopRule, stringConcatInLoopRule } from './performance.js';
import { cookieNotHttpOnlyRule, cookieNotSecureRule, cookieWithoutFlagsRule } from './security-cookies.js';
import {
  insecureRandomIdRule,
  insecureRandomRule,
  staticIvRule,
  tlsInsecureSkipVerifyRule,
  weakCipherRule,
  weakHashRule,
  weakSecretHashRule,
} from './security-crypto.js';
import { commandInjectionRule, jsVmEvalRule, templateInjectionRule } from './security-injection.js';
import { hardcodedSigningKeyRule } from './security-secrets.js';
import { gormSqlInjectionRule, sqlInjectionRule } from './security-sql.js';
import { pathTraversalRule, ssrfRule } from './security-web.js';
import { xssFprintfHtmlRule, xssHtmlResponseRule, xssTemplateHtmlRule } from './security-xss.js';
import { commentedOutCodeRule, debugPrintRule } from './style.js';

/**
 * Go rules. Go patterns are fragile outside a function body (a bare `pkg.F($$$)` may not parse as
 * a call), so these rules are written with node kinds, fields and anchored regexes on the
 * callee's text. Data flow is followed only inside one function: a request value assigned with
 * `:=` or `=` to a variable that reaches the sink.
 */
export const goRules: Rule[] = [
  sqlInjectionRule,
  gormSqlInjectionRule,
  templateInjectionRule,
  commandInjectionRule,
  tlsInsecureSkipVerifyRule,
  insecureRandomRule,
  weakHashRule,
  weakSecretHashRule,
  weakCipherRule,
  ssrfRule,
  pathTraversalRule,
  emptyErrorCheckRule,
  errorReturnNilRule,
  commentedOutCodeRule,
  deferInLoopRule,
  ignoredWriteErrorRule,
  insecureRandomIdRule,
  ignoredErrorRule,
  debugPrintRule,
  xssTemplateHtmlRule,
  xssFprintfHtmlRule,
  xssHtmlResponseRule,
  offByOneChunkRule,
  offByOneMixedBoundsRule,
  offByOneWindowRule,
  offByOneReverseRule,
  offByOneRule,
  selfComparisonRule,
  unreachableCodeRule,
  queryInLoopRule,
  stringConcatInLoopRule,
  regexpInLoopRule,
  decodeInvariantInLoopRule,
  hardcodedSigningKeyRule,
  jsVmEvalRule,
  cookieNotSecureRule,
  cookieNotHttpOnlyRule,
  staticIvRule,
  cookieWithoutFlagsRule,
];
