import { findTaintFlows, type TaintFlow } from '../../../src/engine/flow/find-taint-flows.js';
import type { Language } from '../../../src/engine/languages.js';
import { reviewChange } from '../../../src/engine/review-change.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';
import type { ChangedFile, Finding } from '../../../src/engine/types.js';

/** The flows of a snippet, as `cwe@sinkLine<-sourceLine` strings for short assertions. */
export function flowsOf(language: Language, source: string): string[] {
  return findTaintFlows(language, parseSource(language, source).root()).map(
    (f) => `${f.cwe}@${f.sinkLine}<-${f.sourceLine}`,
  );
}

export function fullFlowsOf(language: Language, source: string): TaintFlow[] {
  return findTaintFlows(language, parseSource(language, source).root());
}

/** A Java servlet method around a body; the body starts on line 4. */
export function servlet(body: string, extra = ''): string {
  return `import javax.servlet.http.*;
class Handler extends HttpServlet {
  public void doPost(HttpServletRequest request, HttpServletResponse response) throws Exception {
${body}
  }
${extra}
}
`;
}

/** A whole file as a change adds it: every line added, in one hunk. */
export function addedFile(path: string, content: string): ChangedFile {
  const lines = content.split('\n');
  return {
    path,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}`,
    content,
  };
}

/** The security findings of a review of that one added file. */
export function securityFindings(path: string, content: string): Finding[] {
  const { findings } = reviewChange(
    { files: [addedFile(path, content)] },
    { checkSecurity: true, checkPerformance: false },
  );
  return findings.filter((f) => f.type === 'security');
}
