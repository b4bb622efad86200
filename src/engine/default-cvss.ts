import type { Severity } from '../common/severity.js';

/**
 * The CVSS 3.1 base score of a security finding whose source gives none (a pack rule without
 * `cvss`, a model's comment): the lowest score of the CVSS band our severity maps to (critical
 * 9.0–10, high 7.0–8.9, medium 4.0–6.9, low 0.1–3.9), so a derived score never claims more than
 * the severity a reviewer already sees.
 */
const BAND_FLOOR: Record<Severity, number> = { critical: 9.0, important: 7.0, warning: 4.0, info: 0.1 };

export function defaultCvss(severity: Severity): number {
  return BAND_FLOOR[severity];
}
