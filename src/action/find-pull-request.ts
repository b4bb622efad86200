import { z } from 'zod';

export interface PullRequestTarget {
  url: string;
  /** The head commit when the event names it: the summary links files at that commit. */
  headSha: string | undefined;
}

const eventSchema = z.looseObject({
  pull_request: z
    .looseObject({
      html_url: z.string(),
      head: z.looseObject({ sha: z.string() }).optional(),
    })
    .optional(),
});

/**
 * The pull request to review: the `pull-request-url` input when given, else the one the event is
 * about (`pull_request`, `pull_request_target`, or any event whose payload carries one).
 */
export function findPullRequest(
  inputUrl: string | undefined,
  env: Record<string, string | undefined>,
  readFile: (path: string) => string,
): PullRequestTarget {
  const eventName = env.GITHUB_EVENT_NAME || 'an unknown event';
  let fromEvent: PullRequestTarget | undefined;
  if (env.GITHUB_EVENT_PATH) {
    let payload: unknown;
    try {
      payload = JSON.parse(readFile(env.GITHUB_EVENT_PATH));
    } catch (error) {
      // Only fatal when the event is the only source of the pull request.
      if (inputUrl === undefined) {
        throw new Error(`Cannot read the ${eventName} event (${env.GITHUB_EVENT_PATH}): ${(error as Error).message}`);
      }
    }
    const pull = eventSchema.safeParse(payload).data?.pull_request;
    if (pull) fromEvent = { url: pull.html_url, headSha: pull.head?.sha };
  }
  if (inputUrl !== undefined) {
    return { url: inputUrl, headSha: fromEvent?.url === inputUrl ? fromEvent.headSha : undefined };
  }
  if (fromEvent) return fromEvent;
  throw new Error(
    `No pull request to review: this workflow ran on ${eventName}, which names none. ` +
      'Run the step on pull_request or pull_request_target, or set the pull-request-url input.',
  );
}
