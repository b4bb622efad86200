/** What a finding is about, in the order lists and reports show them. */
export const FINDING_TYPES = ['security', 'performance', 'style', 'bug', 'suggestion'] as const;

export type FindingType = (typeof FINDING_TYPES)[number];
