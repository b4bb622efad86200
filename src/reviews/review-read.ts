import { CompiledQuery, type Kysely } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { prepared } from '../db/database.js';
import type { Database, ReviewRow } from '../db/schema.js';
import { notFound } from '../shared/errors.js';

// findVisibleReview's rule (decisions §1/§2: the creator's, or an organization's the user belongs
// to, in the credential's mode) as a fixed statement prepared once per connection: the read
// routes run it on every request; the state changes keep findVisibleReview (FOR UPDATE).
const READ_SQL = prepared(`
select * from reviews r
where r.id = $1 and r.mode = $2
  and (r.user_id = $3 or r.organization_id in (select m.organization_id from memberships m where m.user_id = $3))`);

/** The review for a read route; 404 when the principal cannot see it. */
export async function findReviewForRead(
  db: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'mode'>,
  id: string,
): Promise<ReviewRow> {
  const result = await db.executeQuery<ReviewRow>(CompiledQuery.raw(READ_SQL, [id, principal.mode, principal.userId]));
  const row = result.rows[0];
  if (row === undefined) throw notFound('Review');
  return row;
}
