/**
 * Every job queue, named once: the code that enqueues a job and the worker role's handler map
 * (buildJobHandlers) both read the name from here, so the two cannot drift apart.
 */
export const QUEUES = {
  /** Run the engine on a review (reviews/review-processor). */
  review: 'review.process',
  /** Post a finished review to GitHub: review, comments, check run (reviews/review-publisher). */
  publish: 'review.publish',
  /** A verified GitHub App event, run through the app's handlers (app/github-event-job). */
  githubEvent: 'github.event',
  /** Refresh a user's GitHub organization and team memberships (auth/membership-refresh). */
  memberships: 'memberships.refresh',
  /** One attempt at delivering an event to a webhook subscriber (webhooks/deliver-webhook). */
  webhookDelivery: 'webhook-delivery',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
