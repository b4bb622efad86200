import { describe, expect, it } from 'vitest';
import { defaultRepositoryConfig, type RepositoryConfig } from '../../src/github/repository-config.js';
import { type ReviewRequest, reviewSkipReason } from '../../src/github/review-skip-reason.js';

/** Which pull requests are reviewed under `.github/redline.yml` (enabled, auto_review, drafts, base_branches). */

const config = (overrides: Partial<RepositoryConfig> = {}) => ({ ...defaultRepositoryConfig(), ...overrides });
const event: ReviewRequest = { trigger: 'event', draft: false, baseBranch: 'main' };
const command: ReviewRequest = { ...event, trigger: 'command' };

describe('reviewSkipReason', () => {
  it('reviews a ready pull request under the defaults', () => {
    expect(reviewSkipReason(config(), event)).toBeUndefined();
  });

  it('enabled: false turns Redline off, even when asked', () => {
    const reason = 'Redline is turned off for this repository (`enabled: false` in `.github/redline.yml`).';
    expect(reviewSkipReason(config({ enabled: false }), event)).toBe(reason);
    expect(reviewSkipReason(config({ enabled: false }), command)).toBe(reason);
  });

  it('auto_review: false waits to be asked', () => {
    expect(reviewSkipReason(config({ auto_review: false }), event)).toBe(
      'Automatic reviews are off (`auto_review: false`); comment `/redline review` to ask for one.',
    );
    expect(reviewSkipReason(config({ auto_review: false }), command)).toBeUndefined();
  });

  it('drafts are reviewed only with drafts: true, or when asked', () => {
    expect(reviewSkipReason(config(), { ...event, draft: true })).toBe(
      'Draft pull requests are not reviewed (`drafts: false`); mark it ready for review, or comment `/redline review`.',
    );
    expect(reviewSkipReason(config({ drafts: true }), { ...event, draft: true })).toBeUndefined();
    expect(reviewSkipReason(config(), { ...command, draft: true })).toBeUndefined();
  });

  it('base_branches limits the branches, with patterns', () => {
    const only = config({ base_branches: ['main', 'release/*'] });
    expect(reviewSkipReason(only, { ...event, baseBranch: 'release/2.0' })).toBeUndefined();
    expect(reviewSkipReason(only, { ...event, baseBranch: 'feature/x' })).toBe(
      'Pull requests into `feature/x` are not reviewed (`base_branches`: `main`, `release/*`).',
    );
    expect(reviewSkipReason(only, { ...command, baseBranch: 'feature/x' })).toBeUndefined();
  });
});
