import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

// The error envelope is every route's 4xx schema: one compiled writer for all of them.
const compiled = new WeakMap<z.ZodType, Serialize>();

/**
 * zod writes `.nullable()` on an object or a number as `anyOf: [X, { type: 'null' }]`, which
 * fast-json-stringify settles by validating the value against each branch (Ajv): strict there
 * and nowhere else, so a key X does not name failed the whole answer instead of being left out.
 * X with `nullable: true` writes the same JSON without validating.
 */
function nullableBranches(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableBranches);
  if (node === null || typeof node !== 'object') return node;
  const { anyOf, ...rest } = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, nullableBranches(value)]),
  ) as Record<string, unknown>;
  if (!Array.isArray(anyOf)) return anyOf === undefined ? rest : { ...rest, anyOf };
  const isNull = (branch: unknown) => (branch as { type?: unknown } | null)?.type === 'null';
  const others = anyOf.filter((branch) => !isNull(branch));
  if (anyOf.length !== 2 || others.length !== 1) return { ...rest, anyOf };
  return { ...rest, ...(others[0] as object), nullable: true };
}

/**
 * Writes a route's answer from its zod response schema, converted to JSON Schema as the OpenAPI
 * document publishes it (output side) and compiled once per schema by fast-json-stringify.
 * Measured against zod's encode followed by JSON.stringify (fastify-type-provider-zod's
 * serializer), which checked every answer in full: that was about a tenth of a GET's CPU
 * (bench/README, 2026-11-25). Properties the schema does not name are left out, at any depth,
 * as zod's encode did, and a required property missing fails the answer (500). Values are not
 * checked but written as their type: an enum's value or a number's range goes unchecked, and a
 * wrong type is coerced (null in a string property is written "", in an integer 0, 1.7 as 1).
 * The tests check answers against the OpenAPI document (test/http/openapi-responses.test.ts).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) throw new Error('response schemas are zod schemas');
  let serialize = compiled.get(schema);
  if (serialize === undefined) {
    const json = nullableBranches(z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }));
    serialize = fastJson(json as object) as Serialize;
    compiled.set(schema, serialize);
  }
  return serialize;
};
