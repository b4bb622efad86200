import { orderFindings, type ReportInput, reportScore, reportStats } from './report-input.js';

/**
 * `redline review` for people: the comments grouped by file (line, severity, type, message, the
 * rule and any suggestion), then the score, the counts and the summary.
 */
export function toText(input: ReportInput): string {
  const lines: string[] = [];
  const findings = orderFindings(input.findings);
  const width = Math.max(1, ...findings.map((f) => String(f.line).length));
  let file: string | undefined;
  for (const f of findings) {
    if (f.file !== file) {
      if (file !== undefined) lines.push('');
      file = f.file;
      lines.push(f.file);
    }
    const message = f.message.replace(/\s*\n\s*/g, ' ');
    lines.push(
      `  ${String(f.line).padStart(width)}  ${f.severity.padEnd(9)}  ${f.type.padEnd(11)}  ${message} [${f.ruleId}]`,
    );
    if (f.suggestion !== undefined && f.suggestion !== '') {
      lines.push(`  ${' '.repeat(width)}  suggestion: ${f.suggestion.replace(/\s*\n\s*/g, ' ')}`);
    }
  }
  if (findings.length > 0) lines.push('');
  const stats = reportStats(input);
  const { critical, important, warning, suggestion } = stats.issues;
  lines.push(
    `Score ${reportScore(input)}/100: ${stats.files_changed} file(s) changed, +${stats.lines_added} -${stats.lines_deleted}, ` +
      `${stats.comments_count} comment(s) (${critical} critical, ${important} important, ${warning} warning, ${suggestion} info)`,
  );
  if (input.summary !== '') lines.push(input.summary);
  return lines.join('\n');
}
