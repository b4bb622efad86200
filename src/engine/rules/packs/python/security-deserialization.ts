import type { Rule } from '../../rule-schema.js';

export const unsafeDeserializationRule: Rule = {
  id: 'py.unsafe-deserialization',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'pickle, marshal, dill and shelve run code while loading: untrusted bytes become remote code execution (unsafe deserialization). Load data with json, or sign and verify what you unpickle.',
  rule: {
    kind: 'call',
    has: {
      field: 'function',
      regex: '^(c?[Pp]ickle|_pickle|dill|marshal|jsonpickle)\\.(loads?|Unpickler|decode)$|^shelve\\.open$',
    },
  },
  cwe: 'CWE-502',
  cvss: 8.1,
};

export const yamlLoadRule: Rule = {
  id: 'py.yaml-load',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'yaml.load without a safe Loader can build arbitrary Python objects from the document (unsafe deserialization). Use yaml.safe_load.',
  rule: { pattern: 'yaml.load($DOC)' },
  fix: 'yaml.safe_load($DOC)',
  cwe: 'CWE-502',
  cvss: 8.1,
};

export const yamlUnsafeLoaderRule: Rule = {
  id: 'py.yaml-unsafe-loader',
  languages: ['python'],
  type: 'security',
  severity: 'critical',
  message:
    'yaml.load with an unsafe Loader (Loader, FullLoader, UnsafeLoader) or yaml.unsafe_load can build arbitrary Python objects (unsafe deserialization). Use yaml.safe_load or Loader=yaml.SafeLoader.',
  rule: {
    any: [
      { pattern: 'yaml.unsafe_load($$$)' },
      { pattern: 'yaml.full_load($$$)' },
      {
        pattern: 'yaml.load($DOC, $$$REST)',
        has: {
          field: 'arguments',
          any: [
            {
              has: {
                kind: 'keyword_argument',
                has: { field: 'value', regex: '^(yaml\\.)?(Loader|FullLoader|UnsafeLoader)$' },
              },
            },
            { has: { nthChild: 2, regex: '^(yaml\\.)?(Loader|FullLoader|UnsafeLoader)$' } },
          ],
        },
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 8.1,
};
