import type { Rule } from '../../rule-schema.js';

export const unsafeDeserializationRule: Rule = {
  id: 'rb.unsafe-deserialization',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'Marshal.load and YAML.unsafe_load build arbitrary Ruby objects from the input: untrusted data becomes remote code execution (unsafe deserialization). Use JSON, or YAML.safe_load with permitted classes.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^(::)?(Marshal|YAML|Psych)$' } },
      { has: { field: 'method', regex: '^(load|restore|unsafe_load|unsafe_load_file)$' } },
      {
        not: {
          all: [{ has: { field: 'receiver', regex: '(YAML|Psych)$' } }, { has: { field: 'method', regex: '^load$' } }],
        },
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};

export const yamlLoadRule: Rule = {
  id: 'rb.yaml-load',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'YAML.load can build arbitrary Ruby objects on Psych < 4 (Ruby < 3.1), which turns untrusted YAML into code execution (unsafe deserialization). Use YAML.safe_load.',
  rule: {
    kind: 'call',
    all: [{ has: { field: 'receiver', regex: '^(::)?(YAML|Psych)$' } }, { has: { field: 'method', regex: '^load$' } }],
    pattern: '$Y.load($DOC)',
  },
  fix: '$Y.safe_load($DOC)',
  cwe: 'CWE-502',
  cvss: 8.1,
};

export const ojObjectModeRule: Rule = {
  id: 'rb.oj-object-mode',
  languages: ['ruby'],
  type: 'security',
  severity: 'critical',
  message:
    'Oj in :object mode (or Oj.object_load) instantiates whatever classes the JSON names, which lets a request body build arbitrary objects (unsafe deserialization): use Oj.load with mode: :strict or JSON.parse.',
  rule: {
    kind: 'call',
    all: [
      { has: { field: 'receiver', regex: '^Oj$' } },
      {
        any: [
          { has: { field: 'method', regex: '^object_load$' } },
          {
            all: [
              { has: { field: 'method', regex: '^(load|load_file)$' } },
              { has: { field: 'arguments', has: { kind: 'pair', regex: '^(mode:\\s*|:mode\\s*=>\\s*):object$' } } },
            ],
          },
        ],
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};

export const nokogiriEntitiesRule: Rule = {
  id: 'rb.xxe',
  languages: ['ruby'],
  type: 'security',
  severity: 'important',
  message:
    'NOENT makes Nokogiri substitute entities, external ones included: a document that declares one can read local files or make the server fetch URLs (XXE). Parse with the default options (NONET, no NOENT).',
  rule: {
    kind: 'call',
    regex: '^(::)?Nokogiri::XML(::Document)?(\\.parse)?\\b',
    any: [
      { has: { any: [{ kind: 'block' }, { kind: 'do_block' }], regex: '\\.noent\\b' } },
      { has: { field: 'arguments', regex: 'NOENT' } },
    ],
  },
  cwe: 'CWE-611',
  cvss: 7.5,
};
