import { createHash } from 'node:crypto';

/**
 * Decisions §7: the same problem on the same code keeps its fingerprint when lines
 * move (a push above it), so a finding already posted is not posted again. Built from the rule,
 * the file and the code with its whitespace normalised; never from the line number.
 */
export function fingerprintOf(ruleId: string, path: string, code: string): string {
  const normalised = code.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(`${ruleId}\0${path}\0${normalised}`).digest('hex').slice(0, 16);
}
