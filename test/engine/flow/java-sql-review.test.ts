import { describe, expect, it } from 'vitest';
import { flowsOf, securityFindings, servlet } from './flows-of.js';

/** The CWE-89 findings of a whole added Java file, as `ruleId@line`. */
function sqlFindings(source: string): string[] {
  return securityFindings('src/main/java/Search.java', source)
    .filter((f) => f.cwe === 'CWE-89')
    .map((f) => `${f.ruleId}@${f.line}`);
}

describe('Java SQL injection: the pattern rule and the flow analysis', () => {
  it('says nothing when a constant condition picks the fixed value over the request value', () => {
    expect(
      sqlFindings(
        servlet(`    String param = request.getParameter("name");
    String bar;
    int num = 86;
    if ((7 * 42) - num > 200) bar = "fixed";
    else bar = param;
    String sql = "SELECT * FROM users WHERE name = '" + bar + "'";
    conn.createStatement().executeQuery(sql);`),
      ),
    ).toEqual([]);
  });

  it('says nothing when the request value was converted to a number', () => {
    expect(
      sqlFindings(
        servlet(`    int id = Integer.parseInt(request.getParameter("id"));
    conn.createStatement().executeQuery("SELECT * FROM users WHERE id = " + id);`),
      ),
    ).toEqual([]);
  });

  it('reports the request value that reaches the query once, by the flow rule that names its source', () => {
    expect(
      sqlFindings(
        servlet(`    String param = request.getParameter("name");
    String bar = param.trim();
    String sql = "SELECT * FROM users WHERE name = '" + bar + "'";
    conn.createStatement().executeQuery(sql);`),
      ),
    ).toEqual(['java.flow.sql-injection@7']);
  });

  it('keeps the pattern rule for a helper whose value comes from its callers', () => {
    expect(
      sqlFindings(
        servlet(
          `    response.getWriter().println(count(request.getHeader("X-Tenant")));`,
          `  int count(String tenant) throws Exception {
    return conn.createStatement().executeQuery("SELECT count(*) FROM " + tenant + ".orders").getInt(1);
  }`,
        ),
      ),
    ).toEqual(['java.sql-injection@7']);
  });
});

describe('Java SQL sinks on a receiver of unknown type', () => {
  it('treats query and update as SQL sinks when their first argument is written as SQL', () => {
    expect(
      flowsOf(
        'java',
        servlet(`    String p = request.getParameter("p");
    Db.TEMPLATE.query("SELECT * FROM users WHERE name = '" + p + "'", mapper);
    Db.TEMPLATE.update("{call audit('" + p + "')}");`),
      ),
    ).toEqual(['89@5<-4', '89@6<-4']);
  });

  it('leaves other query and update methods alone', () => {
    expect(
      flowsOf(
        'java',
        servlet(`    String p = request.getParameter("p");
    java.net.URI u = builder.query("q=" + p).build();
    digest.update(p.getBytes());`),
      ),
    ).toEqual([]);
  });
});
