/** A GitHub sign-in that failed, as the server's callback sends it back: the API's error code and message. */
export interface SignInFailure {
  code: string;
  message: string;
}

/** The longest message shown: the server's are far shorter; a crafted link gets no wall of text. */
const MAX_MESSAGE = 500;

/**
 * Reads `#sign-in-error=<code>&message=<message>` (docs/dashboard.md, Signing in); undefined for
 * any other fragment. Anyone can write such a link, so the page shows it as text, under its own
 * words, and it signs nobody in or out.
 */
export function readSignInFailure(hash: string): SignInFailure | undefined {
  if (!hash.startsWith('#sign-in-error=')) return undefined;
  const fields = new URLSearchParams(hash.slice(1));
  const code = fields.get('sign-in-error') ?? '';
  if (!/^[a-z_]{1,64}$/.test(code)) return undefined;
  const message = (fields.get('message') ?? '').trim().slice(0, MAX_MESSAGE);
  return { code, message: message === '' ? 'GitHub sign-in failed.' : message };
}
