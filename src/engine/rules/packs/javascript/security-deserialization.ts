import type { Rule } from '../../rule-schema.js';
import { calleeName, calleeProperty, firstArgument, LANGUAGES, NON_LITERAL } from './fragments.js';

export const unsafeDeserializationRule: Rule = {
  id: 'js.unsafe-deserialization',
  languages: LANGUAGES,
  type: 'security',
  severity: 'critical',
  message:
    'This deserializer can construct functions or arbitrary objects from its input (remote code execution): use JSON.parse, or js-yaml load with the default safe schema.',
  rule: {
    kind: 'call_expression',
    any: [
      { all: [{ any: [calleeProperty('^unserialize$'), calleeName('^unserialize$')] }, firstArgument(NON_LITERAL)] },
      { all: [calleeProperty('^unsafeLoad(All)?$', '(?i)yaml'), firstArgument(NON_LITERAL)] },
      {
        all: [
          calleeProperty('^load(All)?$', '(?i)yaml'),
          {
            has: {
              field: 'arguments',
              has: { kind: 'object', has: { kind: 'pair', regex: '^schema\\s*:.*(FULL|UNSAFE)' } },
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};
