import { findTaintFlows, type TaintFlow } from '../../../src/engine/flow/find-taint-flows.js';
import type { Language } from '../../../src/engine/languages.js';
import { parseSource } from '../../../src/engine/rules/ast-grep.js';

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
