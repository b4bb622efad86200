import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { type ApplicationFunction, Probot, ProbotOctokit } from 'probot';

export interface RedlineProbotOptions {
  appId: number;
  privateKey: KeyObject;
  webhookSecret: string;
  /** GITHUB_API_URL: github.com or Enterprise Server. */
  apiUrl: string;
  logger: Logger;
  app: ApplicationFunction;
}

/**
 * The Probot instance of this process: it verifies GitHub's webhook signatures (the HTTP route)
 * and routes verified events to the app's handlers (the event job). Our handlers talk to GitHub
 * through github/ adapters with installation tokens, so Probot's own Octokit is only a fallback;
 * it gets the same base URL and no retry/throttle plugins of its own (the function form of
 * defaults: the object form is silently overridden).
 */
export async function createRedlineProbot(options: RedlineProbotOptions): Promise<Probot> {
  const probot = new Probot({
    appId: options.appId,
    privateKey: options.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    secret: options.webhookSecret,
    baseUrl: options.apiUrl,
    log: options.logger,
    Octokit: ProbotOctokit.defaults((defaults: Record<string, unknown>) => ({
      ...defaults,
      baseUrl: options.apiUrl,
      throttle: { enabled: false },
      retry: { enabled: false },
    })),
  });
  await probot.load(options.app);
  return probot;
}
