import { z } from 'zod';

/** Response shapes shared by every route; the same objects feed validation and the OpenAPI document. */
export const metaSchema = z.object({
  request_id: z.string().describe('Prefix req_; equals the X-Request-Id header.'),
  timestamp: z.string().describe('ISO 8601 UTC.'),
});

export const paginationSchema = z.object({
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
  prev_cursor: z.string().nullable().optional().describe('Where the list walks back from (pass as before).'),
});

export const errorSchema = z
  .object({
    error: z.object({
      type: z.string(),
      message: z.string(),
      code: z.string(),
      status: z.number().int(),
      details: z.object({ field: z.string(), issue: z.string() }).optional(),
    }),
    meta: metaSchema,
  })
  .describe('Spec 7.1 error body.');

/** The sign-in and token endpoints' reduced error shape (spec 7.1). */
export const reducedErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), status: z.number().int() }),
});

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: metaSchema });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: paginationSchema, meta: metaSchema });
}

/** Error responses a route can give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorSchema])) as Record<number, typeof errorSchema>;
}

export function reducedErrorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, reducedErrorSchema])) as Record<number, typeof reducedErrorSchema>;
}

/**
 * OpenAPI security requirements: versioned endpoints take a JWT or an API key, either header, or
 * the dashboard's session cookie (with its CSRF token on state-changing requests).
 */
export const API_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }, { sessionCookie: [] }];
export const JWT_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { sessionCookie: [] }];
