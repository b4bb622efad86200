import fc from 'fast-check';

/**
 * What a hostile client can put in a request, as fast-check arbitraries. Values lean towards the
 * ones that break servers: empty and huge strings, NUL and other control characters, lone
 * surrogates, unicode, numbers past every range, nulls, arrays where objects belong, and values
 * that are almost right (a known id, a date that does not exist, a URL of another host).
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

/** Characters a header value can carry on the wire (no CR, LF or other controls but tab). */
const headerChar = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((c) => c !== 0x7f)
  .map((c) => String.fromCharCode(c));
export const headerText = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 40 }),
  fc.string({ unit: headerChar, minLength: 1000, maxLength: 4000 }),
);

/** Strings for any field: the generated, the edge cases and the almost-valid. */
export function hostileString(known: readonly string[] = []): fc.Arbitrary<string> {
  const edge = fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff\ud800',
    '\u202e\u0645',
    '🙂'.repeat(50),
    'null',
    'undefined',
    '[object Object]',
    "'; drop table users; --",
    '%00',
    '%',
    '%zz',
    '../../etc/passwd',
    '__proto__',
    'constructor',
    '1e400',
    '-0',
    'NaN',
    '9007199254740993',
    '2026-02-31',
    '0000-01-01',
    '9999-12-31T23:59:59-14:00',
    '275760-09-13T00:00:00Z',
    '2026-11-02T10:00:00.000Z',
    'https://github.com/acme/shop/pull/1',
    'https://github.com/acme/shop/pull/99999999999999999999',
    'https://github.com/acme/shop/pull/0',
    'https://github.com/acme/shop/pull/-1',
    'https://github.com/../../pull/2',
    'https://example.com/acme/shop/pull/1',
    'https://example.com/hook',
    'http://127.0.0.1:1/hook',
    'https://[::1]/hook',
    'https://user:pass@example.com/hook',
    'javascript:alert(1)',
    'acme/shop',
    'rev_0000000000000000000000',
    'x'.repeat(101),
    'x'.repeat(5000),
  );
  return fc.oneof(
    { weight: 3, arbitrary: edge },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 3000, maxLength: 20_000 }) },
    ...(known.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
  );
}

export const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 59, 60, 101, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_VALUE, 5e-324),
);

/** Any JSON value, weighted towards the shapes that confuse validation. */
export function hostileJson(known: readonly string[]): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      hostileNumber,
      hostileString(known),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileString(known), tie('value'), { maxKeys: 4 }),
    ),
  }));
  return value;
}

/**
 * A value the schema accepts, or close to it: each property's value is drawn from the schema most
 * of the time and from anything at all otherwise, so requests reach the handlers with one field
 * wrong at a time. The schema is the one the OpenAPI document publishes (generated from zod).
 */
export function fromSchema(schema: JsonSchema | undefined, known: readonly string[]): fc.Arbitrary<unknown> {
  if (schema === undefined) return hostileJson(known);
  const nearly = (s: JsonSchema) =>
    fc.oneof({ weight: 5, arbitrary: fromSchema(s, known) }, { weight: 1, arbitrary: hostileJson(known) });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return fc.oneof(...alternatives.map((s) => fromSchema(s, known)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, nearly(s)])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
        { requiredKeys: (schema.required ?? []).filter((k) => k in properties) },
      );
      // Sometimes a field the schema does not know rides along.
      return fc
        .tuple(record, fc.option(fc.tuple(hostileString(), hostileJson(known)), { freq: 5 }))
        .map(([r, extra]) => (extra === null ? r : { ...r, [extra[0]]: extra[1] }));
    }
    case 'array':
      return fc.array(nearly(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 12, 12),
      });
    case 'string':
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        hostileString(known),
      );
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 }), hostileNumber);
    case 'number':
      return hostileNumber;
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return hostileJson(known);
  }
}

/** Bodies no JSON parser should choke on (and a few it must refuse). */
export const hostileRawBody = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"text"',
    '42',
    '{',
    '{"a":1,}',
    '{"a":1e400}',
    '{"a":-0}',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    '{"name":"a","name":"b"}',
    '\ufeff{}',
    '{"name":"\\u0000"}',
    '{"name":"\\ud800"}',
    '{"url":"\\u0000","events":["\\u0000"]}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
    `{"x":"${'y'.repeat(900_000)}"}`,
  ),
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes)),
);

export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '*/*',
  'application/',
  ';',
);
