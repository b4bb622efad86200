/** One secret found on one line, before it becomes a Finding. */
export interface SecretMatch {
  ruleId: string;
  severity: 'critical' | 'important';
  message: string;
  cwe: string;
  /** CVSS 3.1 base score (SECRET_CVSS). */
  cvss: number;
  /** New line number of the line that carries (or starts) the secret. */
  line: number;
  /** The span on that line to redact; [start, end) in UTF-16 units. */
  start: number;
  end: number;
  /** The whole secret, used only to derive the fingerprint (a multi-line key's body included). */
  secret: string;
  /** Characters of the secret the snippet may keep before '…' (default 4, a token's prefix). */
  keep?: number;
}

const IMPACT = 'anyone with read access to the repository can use it';
const REMEDY = 'Revoke it and load it from the environment.';

/** "A GitHub personal access token is committed: anyone with read access … Revoke it and …" */
export function committedMessage(kind: string, impact = IMPACT, remedy = REMEDY): string {
  return `${kind[0]?.toUpperCase() ?? ''}${kind.slice(1)} is committed: ${impact}. ${remedy}`;
}
