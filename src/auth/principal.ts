import type { Mode, Plan } from '../db/schema.js';
import type { Scope } from './scopes.js';

/** Who is calling, and with what rights: the result of checking a credential. */
export interface Principal {
  userId: string;
  username: string;
  plan: Plan;
  scopes: ReadonlySet<Scope>;
  mode: Mode;
  /** A session is the dashboard's cookie (dashboard-sessions.ts): the signed-in user, as a JWT. */
  via: 'jwt' | 'api_token' | 'session';
  tokenId: string | undefined;
}
