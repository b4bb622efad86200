import type { Rule } from '../../rule-schema.js';
import { firstArgument } from './fragments.js';

export const unsafeYamlXmlDeserializationRule: Rule = {
  id: 'java.unsafe-yaml-xml-deserialization',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'This parser builds arbitrary Java objects named in its input (SnakeYAML without SafeConstructor, XStream without an allow-list, XMLDecoder): untrusted input gets remote code execution. Use new Yaml(new SafeConstructor(new LoaderOptions())), set up XStream type permissions, or parse into plain data.',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^(load|loadAll|loadAs)$' } },
          { has: { field: 'object', kind: 'object_creation_expression', regex: '^new\\s+Yaml\\s*\\(\\s*\\)$' } },
        ],
      },
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^fromXML$' } },
          {
            not: {
              inside: {
                stopBy: 'end',
                kind: 'program',
                has: {
                  stopBy: 'end',
                  kind: 'method_invocation',
                  regex: '\\.(allowTypes\\w*|addPermission|setupDefaultSecurity)\\(',
                },
              },
            },
          },
        ],
      },
      // An XMLDecoder whose readObject() is not called in the same method (java.unsafe-deserialization
      // reports that call, the line where the objects are built).
      {
        kind: 'object_creation_expression',
        has: { field: 'type', regex: '^(java\\.beans\\.)?XMLDecoder$' },
        not: {
          inside: {
            stopBy: 'end',
            kind: 'method_declaration',
            has: { stopBy: 'end', kind: 'method_invocation', regex: '^\\w+\\.readObject\\(\\)' },
          },
        },
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};

export const unsafeDeserializationRule: Rule = {
  id: 'java.unsafe-deserialization',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'ObjectInputStream.readObject (or XMLDecoder) on untrusted bytes lets the sender run code through gadget classes on the classpath (unsafe deserialization). Use a data format such as JSON, or set an ObjectInputFilter allow-list.',
  rule: {
    any: [
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^readObject$' } },
          {
            has: {
              field: 'object',
              kind: 'object_creation_expression',
              regex: '^new\\s+(ObjectInputStream|XMLDecoder)\\b',
            },
          },
        ],
      },
      {
        kind: 'method_invocation',
        all: [
          { has: { field: 'name', regex: '^readObject$' } },
          { has: { field: 'object', kind: 'identifier', pattern: '$IN' } },
          {
            inside: {
              stopBy: 'end',
              kind: 'method_declaration',
              all: [
                {
                  has: {
                    stopBy: 'end',
                    any: [{ kind: 'variable_declarator' }, { kind: 'resource' }],
                    all: [
                      { has: { field: 'name', pattern: '$IN' } },
                      {
                        has: {
                          field: 'value',
                          kind: 'object_creation_expression',
                          regex: '^new\\s+(ObjectInputStream|XMLDecoder)\\b',
                        },
                      },
                    ],
                  },
                },
                { not: { has: { stopBy: 'end', kind: 'method_invocation', regex: '\\.setObjectInputFilter\\(' } } },
              ],
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};

export const jacksonDefaultTypingRule: Rule = {
  id: 'java.jackson-default-typing',
  languages: ['java'],
  type: 'security',
  severity: 'critical',
  message:
    'Jackson default typing without an allow-list lets the JSON name the class to instantiate: gadget classes on the classpath give remote code execution (unsafe deserialization). Remove it, or use activateDefaultTyping with a BasicPolymorphicTypeValidator that allows only your own types.',
  rule: {
    kind: 'method_invocation',
    any: [
      { has: { field: 'name', regex: '^(enableDefaultTyping|enableDefaultTypingAsProperty)$' } },
      {
        all: [
          { has: { field: 'name', regex: '^activateDefaultTyping(AsProperty)?$' } },
          firstArgument({ regex: 'LaissezFaireSubTypeValidator' }),
        ],
      },
    ],
  },
  cwe: 'CWE-502',
  cvss: 9.8,
};

/** Settings that close a DocumentBuilderFactory to external entities and DTDs. */
const XML_HARDENING =
  'setFeature|setExpandEntityReferences|setXIncludeAware|FEATURE_SECURE_PROCESSING|ACCESS_EXTERNAL_DTD|ACCESS_EXTERNAL_SCHEMA';

export const xxeDocumentBuilderRule: Rule = {
  id: 'java.xxe',
  languages: ['java'],
  type: 'security',
  severity: 'important',
  message:
    'A DocumentBuilderFactory left at its defaults resolves external entities: a document that declares one can read local files or make the server fetch URLs (XXE). Set factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true) before building the parser.',
  rule: {
    kind: 'method_invocation',
    has: { field: 'name', regex: '^parse$' },
    all: [
      // A parser object (`builder.parse`, `dbf.newDocumentBuilder().parse`), not a static `X.parse`.
      { has: { field: 'object', regex: '^([a-z_][\\w]*|[\\s\\S]*newDocumentBuilder\\(\\s*\\))$' } },
      {
        inside: {
          stopBy: 'end',
          kind: 'class_body',
          all: [
            {
              has: {
                stopBy: 'end',
                kind: 'method_invocation',
                regex: '^(javax\\.xml\\.parsers\\.)?DocumentBuilderFactory\\.newInstance\\(',
              },
            },
            { not: { has: { stopBy: 'end', regex: `(${XML_HARDENING})` } } },
          ],
        },
      },
    ],
  },
  cwe: 'CWE-611',
  cvss: 7.5,
};
