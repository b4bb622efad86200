export const SCOPES = ['review:read', 'review:write', 'org:read', 'org:write', 'team:read', 'team:write'] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
