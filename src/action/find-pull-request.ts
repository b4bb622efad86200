import { z } from 'zod';

/** What the action reads of @actions/github's `context` (the entry passes the real one). */
export interface ActionContext {
  eventName: string;
  payload: Record<string, unknown>;
  /** GITHUB_SERVER_URL (https://github.com, or an Enterprise Server's address). */
  serverUrl: string;
  /** GITHUB_API_URL (https://api.github.com, or an Enterprise Server's `/api/v3`). */
  apiUrl: string;
}

export interface PullRequestTarget {
  url: string;
  /** From the URL when it is a pull request of this server, to post the review on; else undefined. */
  ref: { owner: string; repo: string; number: number } | undefined;
  /** The head commit when the event names it: the summary links files there, the review goes on it. */
  headSha: string | undefined;
  /**
   * A `pull_request` run from a fork or Dependabot: GitHub gives it a read-only token, so it can
   * annotate but not post a review.
   */
  readOnlyToken: boolean;
}

const repository = z.looseObject({ full_name: z.string() });
const eventSchema = z.looseObject({
  pull_request: z
    .looseObject({
      html_url: z.string(),
      head: z.looseObject({ sha: z.string(), repo: repository.nullable().optional() }).optional(),
      base: z.looseObject({ repo: repository }).optional(),
    })
    .optional(),
  sender: z.looseObject({ login: z.string() }).optional(),
});

/** owner/repo#number of a pull-request URL on `serverUrl`, or undefined for another server or shape. */
function refOf(url: string, serverUrl: string) {
  const base = serverUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/`)) return undefined;
  const match = /^([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/.exec(url.slice(base.length + 1));
  if (!match) return undefined;
  return { owner: match[1] as string, repo: match[2] as string, number: Number(match[3]) };
}

/**
 * The pull request to review: the `pull-request-url` input when given (workflow_dispatch,
 * issue_comment, schedule...), else the one the event is about (`pull_request`,
 * `pull_request_target`, or any event whose payload carries one).
 */
export function findPullRequest(inputUrl: string | undefined, context: ActionContext): PullRequestTarget {
  const eventName = context.eventName || 'an unknown event';
  const event = eventSchema.safeParse(context.payload).data;
  const pull = event?.pull_request;
  const fromFork =
    pull?.head?.repo !== undefined && pull.base !== undefined && pull.head.repo?.full_name !== pull.base.repo.full_name;
  const readOnlyToken =
    context.eventName === 'pull_request' && (fromFork || event?.sender?.login === 'dependabot[bot]');
  const url = inputUrl ?? pull?.html_url;
  if (url === undefined) {
    throw new Error(
      `No pull request to review: this workflow ran on ${eventName}, which names none. ` +
        'Run the step on pull_request or pull_request_target, or set the pull-request-url input.',
    );
  }
  const sameAsEvent = pull !== undefined && pull.html_url === url;
  return {
    url,
    ref: refOf(url, context.serverUrl),
    headSha: sameAsEvent ? pull.head?.sha : undefined,
    readOnlyToken: sameAsEvent && readOnlyToken,
  };
}
