import { compileGlob } from './compile-glob.js';
import type { RepositoryConfig } from './repository-config.js';

export interface ReviewRequest {
  /** `event`: a pull_request event; `command`: someone asked (`/redline review`). */
  trigger: 'event' | 'command';
  draft: boolean;
  /** The pull request's base branch (`base.ref`). */
  baseBranch: string;
}

/**
 * Why a pull request is not reviewed under its repository's configuration, or undefined when it
 * is. The reason becomes the neutral check run's summary. Someone asking explicitly gets a review
 * of a draft, or of a pull request into any branch, or with automatic reviews off; only
 * `enabled: false` turns Redline off for everyone.
 */
export function reviewSkipReason(config: RepositoryConfig, request: ReviewRequest): string | undefined {
  if (!config.enabled) return 'Redline is turned off for this repository (`enabled: false` in `.github/redline.yml`).';
  if (request.trigger === 'command') return undefined;
  if (!config.auto_review) {
    return 'Automatic reviews are off (`auto_review: false`); comment `/redline review` to ask for one.';
  }
  if (request.draft && !config.drafts) {
    return 'Draft pull requests are not reviewed (`drafts: false`); mark it ready for review, or comment `/redline review`.';
  }
  if (config.base_branches.length > 0 && !config.base_branches.some((p) => compileGlob(p)(request.baseBranch))) {
    return `Pull requests into \`${request.baseBranch}\` are not reviewed (\`base_branches\`: ${config.base_branches.map((b) => `\`${b}\``).join(', ')}).`;
  }
  return undefined;
}
