import { AppError, unauthorized, upstreamError } from '../common/errors.js';

export interface OAuthExchange {
  serverUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  fetch: typeof fetch;
}

/** Token-endpoint refusals that mean this server is misconfigured, not that the user's code is bad. */
const SERVER_SIDE_ERRORS = new Set(['incorrect_client_credentials', 'redirect_uri_mismatch']);

/**
 * Trades the authorization code for an access token at `{GITHUB_SERVER_URL}/login/oauth/access_token`.
 * GitHub answers 200 with `{ error }` when the code is bad; that is the user's problem (401), while
 * an unreachable or failing GitHub, or one refusing our own client credentials or callback URL, is
 * ours to report (502).
 */
export async function exchangeOAuthCode(input: OAuthExchange): Promise<string> {
  let response: Response;
  try {
    response = await input.fetch(`${input.serverUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: input.clientId,
        client_secret: input.clientSecret,
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (cause) {
    throw upstreamError('GitHub could not be reached to complete sign-in', cause);
  }
  if (!response.ok) {
    throw upstreamError(`GitHub answered ${response.status} while completing sign-in`);
  }
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch (cause) {
    throw upstreamError('GitHub answered sign-in with something that is not JSON', cause);
  }
  if (typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    if (SERVER_SIDE_ERRORS.has(body.error)) {
      // Not the user's doing, and signing in again cannot help: the operator must fix the set-up.
      throw upstreamError(
        `GitHub refused this server's OAuth app (${body.error}${description}); check GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and PUBLIC_URL`,
      );
    }
    throw unauthorized(`GitHub refused the sign-in code (${body.error}${description})`);
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new AppError('upstream_error', 502, 'GitHub answered sign-in without an access token');
  }
  return body.access_token;
}
