import type { Rule } from '../../rule-schema.js';
import {
  asyncForeachRule,
  floatingPromiseRule,
  missingAwaitFsRule,
  swallowedPromiseAllRule,
  unawaitedOrmWriteRule,
  unawaitedRedisWriteRule,
  unawaitedSideEffectRule,
  unawaitedWriteRule,
} from './bugs-async.js';
import {
  assignmentInConditionRule,
  emptyCatchRule,
  offByOneCountLoopRule,
  offByOneLoopRule,
  offByOnePageLoopRule,
  offByOneReverseLoopRule,
  selfComparisonRule,
  swallowedWriteErrorRule,
  unreachableCodeRule,
} from './bugs-logic.js';
import { awaitInLoopRule, syncIoInHandlerRule } from './performance-async.js';
import {
  jsonCloneInLoopRule,
  jsonParseInvariantInLoopRule,
  jsonParseUnchangedInLoopRule,
  regexInLoopRule,
  regexInvariantInLoopRule,
  regexRebuiltPerItemRule,
  regexUnchangedInLoopRule,
  stringConcatInLoopRule,
} from './performance-loops.js';
import { cookieNotHttpOnlyRule, cookieNotSecureRule } from './security-cookies.js';
import {
  insecureRandomRule,
  staticIvRule,
  tlsDisabledRule,
  weakCipherRule,
  weakHashRule,
  weakSecretHashRule,
} from './security-crypto.js';
import { libxmlEntitiesRule, unsafeDeserializationRule } from './security-deserialization.js';
import {
  commandInjectionRule,
  commandInjectionWrapperRule,
  evalRule,
  shellCCommandRule,
  spawnShellRule,
  stringTimerRule,
  templateFromDataRule,
  templateInjectionRule,
  vmRunRule,
} from './security-injection.js';
import {
  hardcodedCredentialRule,
  jwtDecodeWithoutVerifyRule,
  jwtHardcodedSecretRule,
  jwtNoneAlgorithmRule,
  secretEnvFallbackRule,
} from './security-secrets.js';
import { queryBuilderInjectionRule, sqlInjectionRule } from './security-sql.js';
import { pathTraversalHelperRule, pathTraversalRule, ssrfRule } from './security-web.js';
import {
  angularBypassSanitizerRule,
  dangerouslySetInnerHtmlRule,
  htmlSinkRule,
  innerHtmlRule,
  jqueryHtmlRule,
  reflectedHtmlResponseRule,
} from './security-xss.js';
import { commentedOutCodeRule, consoleLogRule, debuggerRule } from './style.js';

/**
 * JavaScript and TypeScript rules. Precision first: each rule matches a shape that is wrong (or
 * dangerous) as written, and its `valid` examples are the safe near-misses it must leave alone.
 */
export const javascriptRules: Rule[] = [
  sqlInjectionRule,
  commandInjectionRule,
  commandInjectionWrapperRule,
  spawnShellRule,
  shellCCommandRule,
  evalRule,
  stringTimerRule,
  vmRunRule,
  innerHtmlRule,
  htmlSinkRule,
  reflectedHtmlResponseRule,
  dangerouslySetInnerHtmlRule,
  pathTraversalRule,
  pathTraversalHelperRule,
  ssrfRule,
  weakHashRule,
  weakSecretHashRule,
  weakCipherRule,
  insecureRandomRule,
  tlsDisabledRule,
  unsafeDeserializationRule,
  libxmlEntitiesRule,
  jwtNoneAlgorithmRule,
  jwtDecodeWithoutVerifyRule,
  templateInjectionRule,
  templateFromDataRule,
  hardcodedCredentialRule,
  secretEnvFallbackRule,
  queryBuilderInjectionRule,
  jqueryHtmlRule,
  angularBypassSanitizerRule,
  jwtHardcodedSecretRule,
  assignmentInConditionRule,
  selfComparisonRule,
  unreachableCodeRule,
  emptyCatchRule,
  swallowedWriteErrorRule,
  offByOneLoopRule,
  offByOnePageLoopRule,
  offByOneReverseLoopRule,
  floatingPromiseRule,
  missingAwaitFsRule,
  asyncForeachRule,
  unawaitedWriteRule,
  unawaitedRedisWriteRule,
  unawaitedOrmWriteRule,
  unawaitedSideEffectRule,
  swallowedPromiseAllRule,
  awaitInLoopRule,
  syncIoInHandlerRule,
  stringConcatInLoopRule,
  regexInLoopRule,
  regexInvariantInLoopRule,
  regexUnchangedInLoopRule,
  regexRebuiltPerItemRule,
  jsonParseInvariantInLoopRule,
  jsonParseUnchangedInLoopRule,
  jsonCloneInLoopRule,
  consoleLogRule,
  debuggerRule,
  commentedOutCodeRule,
  cookieNotSecureRule,
  cookieNotHttpOnlyRule,
  staticIvRule,
  offByOneCountLoopRule,
];
