import { describe, expect, it } from 'vitest';
import { type PublicationRow, reviewPublication, storedFingerprint } from '../../src/reviews/review-publication.js';

const row = (changes: Partial<PublicationRow> = {}): PublicationRow => ({
  mode: 'live',
  source: 'api',
  options: { inline_comments: true, check_security: true, check_performance: true, auto_review: true },
  status: 'completed',
  published_at: null,
  github_review_id: null,
  ...changes,
});

describe('reviewPublication (decisions §20)', () => {
  it('is pending while the publisher may still post the review', () => {
    expect(reviewPublication(row())).toBe('pending');
    expect(reviewPublication(row({ status: 'in_progress' }))).toBe('pending');
    expect(reviewPublication(row({ source: 'app', options: { ...row().options, inline_comments: false } }))).toBe(
      'pending',
    );
  });

  it('is published once the App posted it, unpublished once the publisher passed it by', () => {
    const at = new Date('2026-11-26T00:00:00Z');
    expect(reviewPublication(row({ published_at: at, github_review_id: 41 }))).toBe('published');
    expect(reviewPublication(row({ published_at: at }))).toBe('unpublished');
  });

  it('is unpublished when the publisher never gets it: test mode, no inline comments, a failed API review', () => {
    expect(reviewPublication(row({ mode: 'test' }))).toBe('unpublished');
    expect(reviewPublication(row({ options: { ...row().options, inline_comments: false } }))).toBe('unpublished');
    expect(reviewPublication(row({ status: 'failed' }))).toBe('unpublished');
    expect(reviewPublication(row({ status: 'cancelled' }))).toBe('unpublished');
  });
});

describe('storedFingerprint', () => {
  it("is the engine's fingerprint, or the rule and place when a comment has none", () => {
    const place = { rule_id: 'js.eval', file: 'a.js', line: 3 };
    expect(storedFingerprint({ ...place, fingerprint: '00ff00ff00ff00ff' })).toBe('00ff00ff00ff00ff');
    expect(storedFingerprint({ ...place, fingerprint: null })).toBe('js.eval:a.js:3');
  });
});
