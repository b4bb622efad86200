import type { Rule } from '../../rule-schema.js';
import {
  bareExceptRule,
  coroutineCallNotAwaitedRule,
  coroutineNotAwaitedRule,
  isLiteralRule,
  localCoroutineNotAwaitedRule,
  mutableDefaultArgumentRule,
  offByOneIndexRule,
  offByOneRangeRule,
  offByOneWhileRule,
  offByOneWindowRule,
  selfComparisonCallRule,
  selfComparisonRule,
  swallowedExceptionRule,
  swallowedWriteErrorRule,
  unreachableCodeRule,
} from './bugs.js';
import {
  awaitInLoopRule,
  blockingCallInAsyncRule,
  lazyRelationInLoopRule,
  loopInvariantJsonRule,
  queryInLoopRule,
  regexCompileInLoopRule,
  stringConcatInLoopRule,
} from './performance.js';
import { cookieNotHttpOnlyRule } from './security-cookies.js';
import {
  insecureRandomRule,
  sslUnverifiedContextRule,
  staticIvRule,
  tlsVerifyDisabledRule,
  tlsVerifySessionDisabledRule,
  weakCipherRule,
  weakHashRule,
  weakSecretHashRule,
} from './security-crypto.js';
import { unsafeDeserializationRule, yamlLoadRule, yamlUnsafeLoaderRule } from './security-deserialization.js';
import {
  commandInjectionHelperRule,
  commandInjectionRule,
  evalRule,
  templateInjectionRule,
} from './security-injection.js';
import { sqlInjectionOrmRule, sqlInjectionRule } from './security-sql.js';
import { flaskDebugRule, pathTraversalRule, ssrfRule } from './security-web.js';
import { htmlResponseFstringRule, markSafeRule } from './security-xss.js';
import { commentedOutCodeRule, debuggerRule, printRule } from './style.js';

/**
 * Python rules. Precision first: each rule matches a shape that is wrong where it appears (a
 * query built by formatting, a shell command that is not a literal), not a name that is only
 * sometimes dangerous. Data flow is followed only inside one function, from a request value
 * assigned to a variable to the sink that takes that variable.
 */
export const pythonRules: Rule[] = [
  sqlInjectionRule,
  commandInjectionRule,
  commandInjectionHelperRule,
  evalRule,
  sqlInjectionOrmRule,
  htmlResponseFstringRule,
  unsafeDeserializationRule,
  yamlLoadRule,
  yamlUnsafeLoaderRule,
  tlsVerifyDisabledRule,
  tlsVerifySessionDisabledRule,
  sslUnverifiedContextRule,
  weakHashRule,
  weakCipherRule,
  weakSecretHashRule,
  insecureRandomRule,
  pathTraversalRule,
  ssrfRule,
  flaskDebugRule,
  bareExceptRule,
  swallowedExceptionRule,
  swallowedWriteErrorRule,
  mutableDefaultArgumentRule,
  isLiteralRule,
  selfComparisonRule,
  debuggerRule,
  printRule,
  stringConcatInLoopRule,
  queryInLoopRule,
  lazyRelationInLoopRule,
  regexCompileInLoopRule,
  templateInjectionRule,
  markSafeRule,
  coroutineNotAwaitedRule,
  localCoroutineNotAwaitedRule,
  coroutineCallNotAwaitedRule,
  offByOneRangeRule,
  offByOneWhileRule,
  offByOneWindowRule,
  selfComparisonCallRule,
  unreachableCodeRule,
  offByOneIndexRule,
  awaitInLoopRule,
  blockingCallInAsyncRule,
  loopInvariantJsonRule,
  commentedOutCodeRule,
  cookieNotHttpOnlyRule,
  staticIvRule,
];
