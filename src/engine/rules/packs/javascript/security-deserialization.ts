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

export const libxmlEntitiesRule: Rule = {
  id: 'js.xxe',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    '`noent: true` makes libxml substitute entities, external ones included: a document that declares one can read local files or make the server fetch URLs (XXE). Leave noent off.',
  rule: {
    kind: 'call_expression',
    has: { field: 'function', regex: '(^|\\.)(parseXml|parseXmlString|parseXmlAsync|parseHtml)$' },
    all: [
      { has: { field: 'arguments', has: { kind: 'object', has: { kind: 'pair', regex: '^noent\\s*:\\s*true$' } } } },
    ],
  },
  cwe: 'CWE-611',
  cvss: 7.5,
};
