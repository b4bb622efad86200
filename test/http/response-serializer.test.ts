import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataEnvelope, errorSchema } from '../../src/common/api-schemas.js';
import { responseSerializerCompiler } from '../../src/http/response-serializer.js';
import { reviewSchema } from '../../src/reviews/review-schemas.js';

const compile = (schema: unknown) =>
  responseSerializerCompiler({ schema, method: 'GET', url: '/v1/reviews/:id', httpStatus: '200' }) as (
    data: unknown,
  ) => string;

const review = {
  id: 'rev_1',
  status: 'completed',
  score: 80,
  summary: 'Quotes " and \\ backslashes, a line\nbreak, \u2028, a tab\t and \u0001',
  pull_request: {
    url: 'https://github.com/acme/api/pull/7',
    number: 7,
    title: 'Add caching 🚀',
    repository: 'acme/api',
    branch: 'feature/cache',
    author: 'octocat',
  },
  stats: {
    files_changed: 3,
    lines_added: 120,
    lines_deleted: 4,
    comments_count: 2,
    issues: { critical: 1, important: 0, warning: 1, suggestion: 0 },
  },
  created_at: '2026-11-25T03:00:00.000Z',
  completed_at: '2026-11-25T03:00:02.500Z',
  organization_id: 'org_1',
  team_id: null,
  error: null,
  publication: 'unpublished',
};
const meta = { request_id: 'req_1', timestamp: '2026-11-25T03:00:03.000Z' };

describe('responseSerializerCompiler', () => {
  const serialize = compile(dataEnvelope(reviewSchema));

  it('writes what JSON.stringify writes, nullable values present or null', () => {
    const body = { data: review, meta };
    expect(serialize(body)).toBe(JSON.stringify(body));
    const pending = { ...review, status: 'pending', score: null, summary: null, stats: null, completed_at: null };
    expect(serialize({ data: pending, meta })).toBe(JSON.stringify({ data: pending, meta }));
    const failed = { ...review, team_id: 'team_2', error: { code: 'github_error', message: 'GitHub answered 502' } };
    expect(serialize({ data: failed, meta })).toBe(JSON.stringify({ data: failed, meta }));
  });

  it('escapes a lone surrogate as JSON.stringify does', () => {
    const body = { data: { ...review, summary: `half a pair: ${'\ud83d'}` }, meta };
    expect(serialize(body)).toBe(JSON.stringify(body));
    expect(serialize(body)).toContain('\\ud83d');
  });

  it('leaves out properties the schema does not name, at any depth, nullable objects included', () => {
    const leaky = {
      data: {
        ...review,
        github_token_sealed: 'sealed',
        pull_request: { ...review.pull_request, head_sha: 'abc' },
        stats: { ...review.stats, files_skipped: 2, issues: { ...review.stats.issues, info: 4 } },
      },
      meta: { ...meta, internal: true },
    };
    expect(serialize(leaky)).toBe(JSON.stringify({ data: review, meta }));
    const failed = { ...review, error: { code: 'github_error', message: 'GitHub answered 502', retry_at: 'soon' } };
    expect(serialize({ data: failed, meta })).toBe(
      JSON.stringify({ data: { ...failed, error: { code: 'github_error', message: 'GitHub answered 502' } }, meta }),
    );
  });

  it('writes a value as its type instead of checking it (the tests check shapes against OpenAPI)', () => {
    const body = { data: { ...review, score: 80.7, status: 'unheard-of' }, meta };
    expect(JSON.parse(serialize(body)).data).toMatchObject({ score: 80, status: 'unheard-of' });
  });

  it('fails an answer missing a required property (the error handler makes it a 500)', () => {
    const { organization_id: _, ...incomplete } = review;
    expect(() => serialize({ data: incomplete, meta })).toThrow(/organization_id/);
  });

  it('writes the error envelope with its optional details present or absent', () => {
    const write = compile(errorSchema);
    const error = { type: 'invalid_request_error', message: 'Bad', code: 'invalid_request', status: 400 };
    expect(write({ error, meta })).toBe(JSON.stringify({ error, meta }));
    const detailed = { error: { ...error, details: { field: 'pr_url', issue: 'is required' } }, meta };
    expect(write(detailed)).toBe(JSON.stringify(detailed));
  });

  it('compiles a schema once, however many routes share it', () => {
    expect(compile(errorSchema)).toBe(compile(errorSchema));
    expect(compile(z.object({ ok: z.boolean() }))).not.toBe(compile(errorSchema));
  });

  it('refuses a schema that is not a zod schema', () => {
    expect(() => compile({ type: 'object' })).toThrow('response schemas are zod schemas');
  });
});
