import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

// The error envelope is every route's 4xx schema: one compiled writer for all of them.
const compiled = new WeakMap<z.ZodType, Serialize>();

/**
 * Writes a route's answer from its zod response schema, converted to JSON Schema as the OpenAPI
 * document publishes it (output side) and compiled once per schema by fast-json-stringify.
 * Properties the schema does not name are left out, as zod's encode did. Measured against zod's
 * encode followed by JSON.stringify (fastify-type-provider-zod's serializer), which checked every
 * answer in full: about a tenth of a GET's CPU (bench/README, 2026-11-25). What is no longer
 * checked on every answer (an enum's values, an integer's range) is checked in the tests, which
 * validate answers against the OpenAPI document (test/http/openapi-responses.test.ts); a
 * required property missing still fails the answer with a 500.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) throw new Error('response schemas are zod schemas');
  let serialize = compiled.get(schema);
  if (serialize === undefined) {
    serialize = fastJson(z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as object) as Serialize;
    compiled.set(schema, serialize);
  }
  return serialize;
};
