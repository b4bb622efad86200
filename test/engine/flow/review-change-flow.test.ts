import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../../src/engine/review-change.js';
import type { ChangedFile } from '../../../src/engine/types.js';

const SOURCE = `import javax.servlet.http.*;
class Search extends HttpServlet {
  public void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {
    String term = request.getParameter("q");
    String query = "/items/item[@name='" + term + "']";
    javax.xml.xpath.XPath xp = javax.xml.xpath.XPathFactory.newInstance().newXPath();
    xp.evaluate(query, document);
  }
}`;

/** The file as a change: whole-file added, or only the given lines added to an existing file. */
function change(added: number[] | 'all', path = 'src/main/java/Search.java'): ChangedFile {
  const lines = SOURCE.split('\n');
  const body = lines.map((l, i) => (added === 'all' || added.includes(i + 1) ? `+${l}` : ` ${l}`)).join('\n');
  const removed = added === 'all' ? 0 : lines.length - added.length;
  const n = added === 'all' ? lines.length : added.length;
  return {
    path,
    status: added === 'all' ? 'added' : 'modified',
    additions: n,
    deletions: 0,
    patch: `@@ -${added === 'all' ? 0 : 1},${removed} +1,${lines.length} @@\n${body}`,
    content: SOURCE,
  };
}

describe('flow findings in a review', () => {
  it('reports a tainted sink on its line with a flow rule id, CWE, CVSS and the source line in the comment', () => {
    const { findings } = reviewChange({ files: [change('all')] }, { checkSecurity: true, checkPerformance: false });
    const flow = findings.filter((f) => f.ruleId.includes('.flow.'));
    expect(flow).toHaveLength(1);
    expect(flow[0]).toMatchObject({
      ruleId: 'java.flow.xpath-injection',
      type: 'security',
      severity: 'important',
      line: 7,
      cwe: 'CWE-643',
      cvssScore: 7.5,
      codeSnippet: 'xp.evaluate(query, document);',
    });
    expect(flow[0]?.message).toContain('`term` comes from a request parameter on line 4');
  });

  it('reports only when the sink line is added, and not with security checks off', () => {
    const sourceOnly = reviewChange({ files: [change([4])] }, { checkSecurity: true, checkPerformance: false });
    expect(sourceOnly.findings.filter((f) => f.ruleId.includes('.flow.'))).toEqual([]);
    const sinkOnly = reviewChange({ files: [change([7])] }, { checkSecurity: true, checkPerformance: false });
    expect(sinkOnly.findings.filter((f) => f.ruleId.includes('.flow.')).map((f) => f.line)).toEqual([7]);
    const off = reviewChange({ files: [change('all')] }, { checkSecurity: false, checkPerformance: false });
    expect(off.findings.filter((f) => f.ruleId.includes('.flow.'))).toEqual([]);
  });

  it('leaves test files alone: their request values are made up by the test', () => {
    for (const path of ['src/test/java/SearchTest.java', 'tests/test_search.py', 'test/Search.java']) {
      const { findings } = reviewChange(
        { files: [change('all', path)] },
        { checkSecurity: true, checkPerformance: false },
      );
      expect(findings.filter((f) => f.ruleId.includes('.flow.'))).toEqual([]);
    }
  });
});
