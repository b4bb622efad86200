import type { Plan } from '../db/schema.js';

/** Spec 8.1: requests per hour, per user. */
export const REQUESTS_PER_HOUR: Record<Plan, number> = { free: 100, pro: 1_000, enterprise: 10_000 };

/** Spec 8.2: reviews created per organization, per rolling hour and rolling day (null: unlimited). */
export const REVIEW_QUOTA: Record<Plan, { hour: number; day: number | null }> = {
  free: { hour: 10, day: 20 },
  pro: { hour: 100, day: 500 },
  enterprise: { hour: 1_000, day: null },
};
