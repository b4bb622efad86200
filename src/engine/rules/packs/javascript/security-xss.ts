import type { Rule } from '../../rule-schema.js';
import {
  CONSTANT_NAME,
  calleeProperty,
  DYNAMIC_STRING,
  declaredFrom,
  firstArgument,
  LANGUAGES,
  NON_LITERAL,
  REQUEST_VALUE_LITE,
} from './fragments.js';

const SANITIZED = { regex: '(?i)(sanitize|purify|escape)' };

/**
 * A field of a record read into a built string, not a number's: `me.displayName`, `${user.bio}`
 * (a count, a total, a length or an id cannot carry markup).
 */
const TEXT_FIELD = {
  kind: 'member_expression',
  stopBy: 'end',
  has: {
    field: 'property',
    not: { regex: '(?i)(^(length|size|id|page|index)$|count$|total$|num$|number$|amount$|price$|qty$|quantity$)' },
  },
};

/** HTML markup built from a request value, with no escaping call: `'<p>' + email + '</p>'`. */
const REQUEST_HTML = {
  all: [
    DYNAMIC_STRING,
    { regex: '<[a-zA-Z]' },
    { has: { ...REQUEST_VALUE_LITE, stopBy: 'end' } },
    { not: { has: { kind: 'call_expression', regex: '(?i)^[\\w$.]*(escape|sanitize|purify|encode)', stopBy: 'end' } } },
  ],
};

export const innerHtmlRule: Rule = {
  id: 'js.inner-html',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'Assigning a non-literal to innerHTML/outerHTML renders it as HTML (cross-site scripting): use textContent, or sanitize it (e.g. DOMPurify.sanitize).',
  rule: {
    any: [{ kind: 'assignment_expression' }, { kind: 'augmented_assignment_expression' }],
    has: { field: 'left', kind: 'member_expression', has: { field: 'property', regex: '^(innerHTML|outerHTML)$' } },
    all: [
      { has: { field: 'right', all: [NON_LITERAL, { not: SANITIZED }, { not: declaredFrom(SANITIZED, '$CLEAN') }] } },
    ],
  },
  cwe: 'CWE-79',
};

export const htmlSinkRule: Rule = {
  id: 'js.html-sink',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'document.write and insertAdjacentHTML render their argument as HTML: with non-constant input this is cross-site scripting. Build DOM nodes or sanitize first.',
  rule: {
    kind: 'call_expression',
    any: [
      {
        all: [
          calleeProperty('^(write|writeln)$', '^document$'),
          firstArgument({ all: [NON_LITERAL, { not: SANITIZED }] }),
        ],
      },
      {
        all: [
          calleeProperty('^insertAdjacentHTML$'),
          {
            has: {
              field: 'arguments',
              has: { nthChild: 2, all: [NON_LITERAL, { not: SANITIZED }] },
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-79',
};

export const reflectedHtmlResponseRule: Rule = {
  id: 'js.reflected-html-response',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    "The response is HTML built by splicing in a value read from the request, so a crafted link runs script in the visitor's browser (reflected cross-site scripting): render it through an escaping template, or escape the value (e.g. with escape-html) before splicing it in.",
  rule: {
    any: [
      // Express/Fastify: `res.send(`<p>No results for ${q}</p>`)`, `reply.type('text/html').send('<p>' + name)`.
      {
        kind: 'call_expression',
        all: [
          calleeProperty('^(send|write|end)$', '^(res|response|reply)\\b'),
          firstArgument({ any: [REQUEST_HTML, declaredFrom(REQUEST_HTML, '$HTML')] }),
        ],
      },
      // Koa: `ctx.body = `<h1>${ctx.query.q}</h1>``.
      {
        kind: 'assignment_expression',
        has: { field: 'left', regex: '^ctx\\.(body|response\\.body)$' },
        all: [{ has: { field: 'right', any: [REQUEST_HTML, declaredFrom(REQUEST_HTML, '$HTML')] } }],
      },
    ],
  },
  cwe: 'CWE-79',
};

/** `__html: value` with a value that is no literal, not sanitized, and no module constant. */
const UNSAFE_HTML_PAIR = {
  kind: 'pair',
  has: { field: 'key', regex: '^__html$' },
  all: [
    {
      has: {
        field: 'value',
        all: [
          NON_LITERAL,
          { not: SANITIZED },
          // `const html = DOMPurify.sanitize(...)`, or a module constant (`__html: INBOX_ICON`).
          { not: declaredFrom(SANITIZED, '$CLEAN') },
          { not: CONSTANT_NAME },
        ],
      },
    },
  ],
};

export const dangerouslySetInnerHtmlRule: Rule = {
  id: 'js.dangerously-set-inner-html',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'dangerouslySetInnerHTML with a non-literal `__html` renders unescaped HTML (cross-site scripting): sanitize it first or render it as text.',
  rule: {
    any: [
      { ...UNSAFE_HTML_PAIR, inside: { kind: 'jsx_attribute', regex: '^dangerouslySetInnerHTML', stopBy: 'end' } },
      // `const markup = { __html: ... }` first, then `dangerouslySetInnerHTML={markup}`: said where it renders.
      {
        kind: 'jsx_attribute',
        regex: '^dangerouslySetInnerHTML',
        has: {
          kind: 'jsx_expression',
          has: declaredFrom({ kind: 'object', has: UNSAFE_HTML_PAIR }, '$MARKUP'),
        },
      },
    ],
  },
  cwe: 'CWE-79',
};

export const jqueryHtmlRule: Rule = {
  id: 'js.jquery-html',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    'jQuery .html()/.append() with HTML built from variables renders them as markup (cross-site scripting): set text with .text(), or build elements and set their text.',
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^(html|append|prepend|after|before|replaceWith|wrap)$'),
      { has: { field: 'function', has: { field: 'object', regex: '^(\\$|jQuery)\\(' } } },
      firstArgument({
        all: [DYNAMIC_STRING, { not: { has: { ...SANITIZED, stopBy: 'end' } } }],
        any: [
          { regex: '<[a-zA-Z]' },
          // `.html('Welcome, ' + me.displayName)`: text of a record's field set as markup (the
          // other methods take such a string as text unless it holds a tag).
          { inside: { kind: 'arguments', inside: calleeProperty('^html$') }, has: TEXT_FIELD },
        ],
      }),
    ],
  },
  cwe: 'CWE-79',
};

export const angularBypassSanitizerRule: Rule = {
  id: 'js.angular-bypass-sanitizer',
  languages: LANGUAGES,
  type: 'security',
  severity: 'important',
  message:
    "bypassSecurityTrust*() (or Renderer2 setting innerHTML) switches off Angular's sanitizer for a value that is not a constant: if it holds user content, that is cross-site scripting. Bind it normally (Angular sanitizes [innerHTML]) or sanitize it first.",
  rule: {
    kind: 'call_expression',
    any: [
      {
        all: [
          calleeProperty('^bypassSecurityTrust(Html|Script|Url|ResourceUrl|Style)$'),
          firstArgument({ all: [NON_LITERAL, { not: SANITIZED }] }),
        ],
      },
      {
        all: [
          calleeProperty('^setProperty$'),
          {
            has: {
              field: 'arguments',
              all: [
                { has: { nthChild: 2, kind: 'string', regex: '^.(innerHTML|outerHTML).$' } },
                { has: { nthChild: 3, all: [NON_LITERAL, { not: SANITIZED }] } },
              ],
            },
          },
        ],
      },
    ],
  },
  cwe: 'CWE-79',
};
