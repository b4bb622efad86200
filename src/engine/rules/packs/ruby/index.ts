import type { Rule } from '../../rule-schema.js';
import {
  assignmentInConditionRule,
  offByOneCountRangeRule,
  offByOneRangeRule,
  offByOneUptoRule,
  offByOneWhileRule,
  selfComparisonRule,
  swallowedExceptionRule,
  unreachableCodeRule,
} from './bugs.js';
import {
  associationQueryInLoopRule,
  loopInvariantParseRule,
  queryInLoopRule,
  regexpNewInLoopRule,
  stringConcatInLoopRule,
} from './performance.js';
import { cookieNotHttpOnlyRule, cookieNotSecureRule, cookieWithoutFlagsRule } from './security-cookies.js';
import {
  insecureRandomRule,
  staticIvRule,
  tlsVerifyNoneRule,
  weakCipherRule,
  weakHashRule,
  weakSecretHashRule,
} from './security-crypto.js';
import {
  nokogiriEntitiesRule,
  ojObjectModeRule,
  unsafeDeserializationRule,
  yamlLoadRule,
} from './security-deserialization.js';
import {
  commandInjectionRule,
  dynamicDispatchRule,
  evalRule,
  inlineTemplateInjectionRule,
  templateInjectionRule,
} from './security-injection.js';
import { sqlInjectionDatasetRule, sqlInjectionRule } from './security-sql.js';
import { openUriArgumentRule, pathTraversalRule, ssrfRule, ssrfStoredParamRule } from './security-web.js';
import { htmlSafeRule, sinatraHtmlResponseRule } from './security-xss.js';
import { commentedOutCodeRule, debuggerRule, debugOutputRule } from './style.js';

/**
 * Ruby and Rails rules, written with node kinds and fields (call: receiver, method, arguments).
 * Precision first: an injection is reported when the dangerous string is interpolated or
 * concatenated in the call itself, or when a value from `params` reaches the sink directly.
 */
export const rubyRules: Rule[] = [
  sqlInjectionRule,
  sqlInjectionDatasetRule,
  ssrfStoredParamRule,
  commandInjectionRule,
  evalRule,
  unsafeDeserializationRule,
  yamlLoadRule,
  tlsVerifyNoneRule,
  weakHashRule,
  weakCipherRule,
  weakSecretHashRule,
  insecureRandomRule,
  dynamicDispatchRule,
  pathTraversalRule,
  swallowedExceptionRule,
  debuggerRule,
  debugOutputRule,
  templateInjectionRule,
  htmlSafeRule,
  sinatraHtmlResponseRule,
  ssrfRule,
  offByOneRangeRule,
  offByOneWhileRule,
  selfComparisonRule,
  queryInLoopRule,
  associationQueryInLoopRule,
  stringConcatInLoopRule,
  assignmentInConditionRule,
  commentedOutCodeRule,
  unreachableCodeRule,
  ojObjectModeRule,
  nokogiriEntitiesRule,
  inlineTemplateInjectionRule,
  regexpNewInLoopRule,
  loopInvariantParseRule,
  openUriArgumentRule,
  cookieNotSecureRule,
  cookieNotHttpOnlyRule,
  staticIvRule,
  offByOneCountRangeRule,
  offByOneUptoRule,
  cookieWithoutFlagsRule,
];
