import { atOrAbove, type Severity } from '../../common/severity.js';
import type { FindingType } from '../finding-types.js';
import { ruleDescription } from '../rule-description.js';
import type { Finding } from '../types.js';
import { orderFindings, type ReportInput } from './report-input.js';

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** The partialFingerprints key: bump the suffix if the fingerprint's recipe ever changes. */
export const SARIF_FINGERPRINT_KEY = 'redline/v1';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { type: FindingType; severity: Severity; tags: string[]; 'security-severity'?: string };
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId: '%SRCROOT%' };
      region: { startLine: number };
    };
  }[];
  partialFingerprints: Record<string, string>;
  properties: {
    type: FindingType;
    severity: Severity;
    suggestion?: string;
    cwe?: string;
    cvss_score?: number;
  };
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: {
    tool: { driver: { name: 'Redline'; version?: string; informationUri?: string; rules: SarifRule[] } };
    results: SarifResult[];
  }[];
}

export interface SarifOptions {
  /** Redline's version, as `tool.driver.version`. */
  toolVersion?: string | undefined;
  /** Where to read about Redline, as `tool.driver.informationUri` (an absolute URI). */
  informationUri?: string | undefined;
  /**
   * A rule's short description; by default what the engine's rule detects (ruleDescription), or
   * the rule id for one it does not know. Never a finding's message: that describes one finding.
   */
  ruleDescriptions?: Readonly<Record<string, string>> | undefined;
}

/** Decisions §9: `error` for critical and important, `warning`, `note` for info. */
export function sarifLevel(severity: Severity): SarifLevel {
  if (severity === 'critical' || severity === 'important') return 'error';
  return severity === 'warning' ? 'warning' : 'note';
}

/**
 * `redline review --format sarif`: one SARIF 2.1.0 run, a rule per rule id, a result per finding
 * at its file (relative to the repository root, `%SRCROOT%`) and line, carrying Redline's own type
 * and severity in `properties` and the finding's fingerprint in `partialFingerprints`.
 */
export function toSarif(input: Pick<ReportInput, 'findings'>, options: SarifOptions = {}): SarifLog {
  const findings = orderFindings(input.findings);
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  for (const f of findings) {
    const index = ruleIndex.get(f.ruleId);
    if (index === undefined) {
      ruleIndex.set(f.ruleId, rules.length);
      rules.push(ruleOf(f, options.ruleDescriptions?.[f.ruleId]));
      continue;
    }
    const rule = rules[index];
    if (rule === undefined) continue;
    // A rule reports at the highest severity any of its findings has.
    if (!atOrAbove(rule.properties.severity, f.severity)) {
      rule.properties.severity = f.severity;
      rule.defaultConfiguration.level = sarifLevel(f.severity);
    }
    if (f.cvssScore !== undefined) raiseSecuritySeverity(rule, f.cvssScore);
  }
  const results = findings.map((f): SarifResult => {
    const properties: SarifResult['properties'] = { type: f.type, severity: f.severity };
    if (f.suggestion !== undefined && f.suggestion !== '') properties.suggestion = f.suggestion;
    if (f.cwe !== undefined) properties.cwe = f.cwe;
    if (f.cvssScore !== undefined) properties.cvss_score = f.cvssScore;
    return {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId) ?? 0,
      level: sarifLevel(f.severity),
      message: { text: f.message.trim() === '' ? f.ruleId : f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: relativeUri(f.file), uriBaseId: '%SRCROOT%' },
            region: { startLine: Math.max(1, Math.trunc(f.line)) },
          },
        },
      ],
      partialFingerprints: { [SARIF_FINGERPRINT_KEY]: f.fingerprint },
      properties,
    };
  });
  const driver: SarifLog['runs'][number]['tool']['driver'] = {
    name: 'Redline',
    ...(options.toolVersion !== undefined ? { version: options.toolVersion } : {}),
    ...(options.informationUri !== undefined ? { informationUri: options.informationUri } : {}),
    rules,
  };
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [{ tool: { driver }, results }] };
}

function ruleOf(f: Finding, description: string | undefined): SarifRule {
  const tags: string[] = [f.type];
  if (f.cwe !== undefined && /^CWE-\d+$/i.test(f.cwe)) tags.push(`external/cwe/${f.cwe.toLowerCase()}`);
  const rule: SarifRule = {
    id: f.ruleId,
    shortDescription: { text: shortText(description ?? ruleDescription(f.ruleId) ?? f.ruleId, f.ruleId) },
    defaultConfiguration: { level: sarifLevel(f.severity) },
    properties: { type: f.type, severity: f.severity, tags },
  };
  if (f.cvssScore !== undefined) raiseSecuritySeverity(rule, f.cvssScore);
  return rule;
}

/** GitHub code scanning ranks security alerts by this property (a number in a string, 0.0-10.0). */
function raiseSecuritySeverity(rule: SarifRule, cvss: number): void {
  if (!Number.isFinite(cvss)) return;
  const current = Number(rule.properties['security-severity'] ?? '-1');
  if (cvss > current) rule.properties['security-severity'] = Math.min(10, Math.max(0, cvss)).toFixed(1);
}

function shortText(text: string, fallback: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  if (line === '') return fallback;
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}

/** A repository path as a relative URI reference: '/'-separated, each segment percent-encoded. */
function relativeUri(file: string): string {
  return file
    .replace(/\\/g, '/')
    .replace(/^(\.\/|\/)+/, '')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}
