import type { Rule } from '../../rule-schema.js';
import {
  assignmentInConditionRule,
  catchReturnNullRule,
  emptyCatchRule,
  futureExceptionSwallowedRule,
  offByOneRule,
  selfEqualsRule,
  stringReferenceEqualityRule,
  swallowedWriteErrorRule,
  unreachableAfterExitRule,
} from './bugs.js';
import {
  blockingCallInReactiveRule,
  objectMapperInLoopRule,
  parseInvariantInLoopRule,
  queryInLoopRule,
  regexCompileInLoopRule,
  stringConcatInLoopRule,
} from './performance.js';
import { cookieNotHttpOnlyRule } from './security-cookies.js';
import {
  hostnameVerificationDisabledRule,
  insecureRandomCodeRule,
  insecureRandomFieldRule,
  insecureRandomRule,
  trustAllCertificatesRule,
  trustAllStrategyRule,
  weakCipherRule,
  weakHashRule,
} from './security-crypto.js';
import {
  jacksonDefaultTypingRule,
  unsafeDeserializationRule,
  unsafeYamlXmlDeserializationRule,
  xxeDocumentBuilderRule,
} from './security-deserialization.js';
import { weakSecretHashRule } from './security-hash.js';
import {
  commandInjectionRule,
  expressionInjectionRule,
  groovyEvalRule,
  scriptEvalRule,
  springViewNameInjectionRule,
} from './security-injection.js';
import { staticIvRule } from './security-iv.js';
import { hardcodedDbPasswordRule, hardcodedSigningKeyRule } from './security-secrets.js';
import { mybatisDollarSubstitutionRule, sqlInjectionRule } from './security-sql.js';
import {
  pathTraversalRequestRule,
  pathTraversalRule,
  ssrfHttpClientRule,
  ssrfRule,
  uploadOriginalFilenameRule,
} from './security-web.js';
import { servletXssRule, springHtmlResponseXssRule } from './security-xss.js';
import { commentedOutCodeRule, systemOutRule } from './style.js';

/**
 * Java rules, written with node kinds and fields (method_invocation: object, name, arguments) so
 * they match statements without a surrounding class in the pattern. Precision first: a query
 * is flagged when it is concatenated or formatted in the call itself, not when a variable of
 * unknown origin is passed.
 */
export const javaRules: Rule[] = [
  sqlInjectionRule,
  ssrfHttpClientRule,
  unsafeYamlXmlDeserializationRule,
  xxeDocumentBuilderRule,
  expressionInjectionRule,
  hardcodedDbPasswordRule,
  insecureRandomCodeRule,
  weakCipherRule,
  pathTraversalRequestRule,
  commandInjectionRule,
  unsafeDeserializationRule,
  weakHashRule,
  insecureRandomRule,
  insecureRandomFieldRule,
  trustAllCertificatesRule,
  hostnameVerificationDisabledRule,
  emptyCatchRule,
  stringReferenceEqualityRule,
  systemOutRule,
  stringConcatInLoopRule,
  mybatisDollarSubstitutionRule,
  groovyEvalRule,
  trustAllStrategyRule,
  scriptEvalRule,
  servletXssRule,
  pathTraversalRule,
  ssrfRule,
  assignmentInConditionRule,
  offByOneRule,
  selfEqualsRule,
  regexCompileInLoopRule,
  queryInLoopRule,
  unreachableAfterExitRule,
  catchReturnNullRule,
  hardcodedSigningKeyRule,
  objectMapperInLoopRule,
  commentedOutCodeRule,
  springHtmlResponseXssRule,
  springViewNameInjectionRule,
  jacksonDefaultTypingRule,
  blockingCallInReactiveRule,
  futureExceptionSwallowedRule,
  parseInvariantInLoopRule,
  uploadOriginalFilenameRule,
  weakSecretHashRule,
  staticIvRule,
  cookieNotHttpOnlyRule,
  swallowedWriteErrorRule,
];
