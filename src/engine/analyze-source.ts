import type { SgNode } from '@ast-grep/napi';
import type { DiffIndex } from '../common/diff/diff-index.js';
import {
  COMPLEX_FUNCTION_RULE,
  COMPLEX_FUNCTION_SEVERITY,
  COMPLEX_FUNCTION_THRESHOLD,
  complexFunctionMessage,
  functionComplexities,
  touchedFunctions,
  writtenFunctions,
} from './complexity/index.js';
import { defaultCvss } from './default-cvss.js';
import { reconstructNewSide } from './diff/reconstruct-new-side.js';
import type { FileRole } from './files/file-role.js';
import { roleKeeps } from './files/role-policy.js';
import { fingerprintOf } from './fingerprint.js';
import { flowReview } from './flow/flow-findings.js';
import type { Language } from './languages.js';
import { parseSource } from './rules/ast-grep.js';
import { RULES } from './rules/packs/index.js';
import { runRules } from './rules/run-rules.js';
import type { ChangedFile, EngineOptions, Finding } from './types.js';

/**
 * Rules and complexity for one source file; matches are reported on added lines only. Analyzers
 * whose every finding the file's role would drop (`role-policy.ts`) do not run.
 */
export function analyzeSource(
  file: ChangedFile,
  language: Language,
  role: FileRole,
  index: DiffIndex,
  options: EngineOptions,
): { findings: Finding[]; complexities: number[] } {
  // Without the file's content, the hunks' new side is parsed alone, at real line numbers when
  // they fit (toReal maps lines back when a huge gap between hunks had to be squeezed).
  let source: string;
  let toReal: (line: number) => number | undefined = (line) => line;
  const added = new Set<number>();
  if (file.content !== undefined) {
    source = file.content;
    for (const line of index.addedLines.keys()) added.add(line);
  } else {
    const side = reconstructNewSide(index.hunks);
    source = side.text;
    if (!side.aligned) toReal = (line) => side.realLines[line - 1] || undefined;
    side.realLines.forEach((real, i) => {
      if (real !== 0 && index.isAdded(real)) added.add(i + 1);
    });
  }
  let root: SgNode;
  try {
    root = parseSource(language, source).root();
  } catch {
    return { findings: [], complexities: [] };
  }
  let matches = runRules({
    path: file.path,
    language,
    source,
    addedLines: added,
    rules: RULES,
    checkSecurity: options.checkSecurity && roleKeeps(role, 'security'),
    checkPerformance: options.checkPerformance && roleKeeps(role, 'performance'),
    root,
  });
  // After the rules' matches: on a line a rule already flags, the rule's comment is the one kept.
  // Production only: a test's request values are made up by the test (a test view that echoes a
  // query parameter is how a framework's tests exercise it), and a docs or example snippet's
  // input is nobody's.
  if (options.checkSecurity && role === 'production') {
    const flow = flowReview(language, root, file.path, source, toReal, matches);
    // A rule's match on a sink the analysis saw reached only by the code's own constants goes.
    matches = matches.filter((m) => !flow.disproves(m) && !flow.repeats(m, added));
    matches.push(...flow.matches);
  }
  const findings: Finding[] = [];
  for (const m of matches) {
    const line = toReal(m.line);
    if (line === undefined || !index.isAdded(line)) continue;
    findings.push({
      type: m.type,
      severity: m.severity,
      message: m.message,
      file: file.path,
      line,
      suggestion: m.suggestion,
      codeSnippet: m.snippet,
      ruleId: m.ruleId,
      fingerprint: fingerprintOf(m.ruleId, file.path, m.code),
      cwe: m.cwe,
      cvssScore: m.cvss ?? (m.type === 'security' ? defaultCvss(m.severity) : undefined),
    });
  }
  const functions = functionComplexities(root, language);
  const touched = touchedFunctions(functions, added);
  // Only a function the change wrote or rewrote is the change's to simplify.
  for (const fn of writtenFunctions(touched, added)) {
    if (fn.complexity <= COMPLEX_FUNCTION_THRESHOLD) continue;
    // On its first line, or where a rewritten function's first added line is (a comment stays on the change).
    let first = fn.startLine;
    while (!added.has(first) && first < fn.endLine) first++;
    const startLine = toReal(first);
    if (startLine === undefined) continue;
    findings.push({
      type: 'style',
      severity: COMPLEX_FUNCTION_SEVERITY,
      message: complexFunctionMessage(fn.name, fn.complexity),
      file: file.path,
      line: startLine,
      codeSnippet: index.addedLines.get(startLine)?.trim().slice(0, 200),
      ruleId: COMPLEX_FUNCTION_RULE,
      fingerprint: fingerprintOf(COMPLEX_FUNCTION_RULE, file.path, fn.name),
    });
  }
  return { findings, complexities: touched.map((f) => f.complexity) };
}
