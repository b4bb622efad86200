import { describe, expect, it } from 'vitest';
import { useLine } from '../../../src/engine/flow/flow-findings.js';
import { reviewChange } from '../../../src/engine/review-change.js';
import type { ChangedFile } from '../../../src/engine/types.js';
import { securityFindings } from './flows-of.js';

const at = (path: string, content: string) => securityFindings(path, content).map((f) => `${f.line} ${f.ruleId}`);

describe('a query built by one call and run by another', () => {
  it('is reported where the variable holding it is run, once (SQLAlchemy text() then execute)', () => {
    const view = `from fastapi import APIRouter, Query
from sqlalchemy import text

router = APIRouter()

@router.get("/orders")
def orders(status: str = Query("open"), session=None):
    stmt = text(f"SELECT id FROM orders WHERE status = '{status}'")
    note = "unrelated"
    return session.execute(stmt).all()
`;
    // The rule and the flow agree on line 10: one comment there, none on the text() line.
    expect(at('api/orders.py', view)).toEqual(['10 py.sql-injection']);
  });

  it('stays on the line of a builder called inline, even when that line stores a result', () => {
    const view = `from fastapi import APIRouter, Query
from sqlalchemy import text

router = APIRouter()

@router.get("/orders")
def orders(status: str = Query("open"), session=None):
    rows = session.execute(text(f"SELECT id FROM orders WHERE status = '{status}'")).all()
    return [dict(r._mapping) for r in rows]
`;
    expect(at('api/orders.py', view).map((f) => f.split(' ')[0])).toEqual(['8']);
  });

  it('puts an LDAP filter built from the query string on the search that runs it (Go), not after an escape', () => {
    const handler = (value: string) => `package directory

import (
	"fmt"
	"net/http"

	"github.com/go-ldap/ldap/v3"
)

func Find(conn *ldap.Conn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		filter := fmt.Sprintf("(uid=%s)", ${value})
		req := ldap.NewSearchRequest("dc=example,dc=org", ldap.ScopeWholeSubtree, ldap.NeverDerefAliases, 0, 0, false, filter, []string{"cn"}, nil)
		res, err := conn.Search(req)
		if err != nil || len(res.Entries) == 0 {
			return
		}
		fmt.Fprint(w, res.Entries[0].GetAttributeValue("cn"))
	}
}
`;
    // The directory's answer is not the request's input: no cross-site scripting on line 18.
    expect(at('internal/directory/find.go', handler('r.URL.Query().Get("uid")'))).toEqual([
      '14 go.flow.ldap-injection',
    ]);
    expect(at('internal/directory/find.go', handler('ldap.EscapeFilter(r.URL.Query().Get("uid"))'))).toEqual([]);
  });

  it('puts a Net::LDAP filter on the search line (Ruby)', () => {
    const controller = `class PeopleController < ApplicationController
  def show
    filter = Net::LDAP::Filter.construct("(uid=#{params[:uid]})")
    entries = LDAP.search(base: "ou=people,dc=example,dc=org", filter: filter)
    render json: entries.map(&:dn)
  end
end
`;
    const findings = securityFindings('app/controllers/people_controller.rb', controller);
    expect(findings.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['4 rb.flow.ldap-injection']);
    expect(findings[0]?.message).toBe(
      'LDAP injection: a value comes from a request parameter on line 3 and reaches this LDAP query unchecked; escape it for an LDAP filter before building the query.',
    );
  });
});

describe('a connection opened to a host the request picks', () => {
  it('is reported where a request goes out on it (Faraday), and not for a host the code wrote', () => {
    const controller = (base: string) => `class IntegrationsController < ApplicationController
  def check
    base = ${base}
    conn = Faraday.new(url: base)
    response = conn.get("/health")
    render json: { status: response.status }
  end
end
`;
    expect(at('app/controllers/integrations_controller.rb', controller('"https://#{params[:domain]}"'))).toEqual([
      '5 rb.flow.ssrf',
    ]);
    expect(
      at('app/controllers/integrations_controller.rb', controller('"https://status.example.org/#{params[:domain]}"')),
    ).toEqual([]);
  });
});

describe('useLine', () => {
  const lines = ['    stmt = text(q)', '', '    x = 1', '    run(stmt)', 'def other():', '    run(stmt)'];
  it('finds the first later line of the block naming the variable the builder was stored in', () => {
    expect(useLine(lines, 1, 'text')).toBe(4);
  });
  it('keeps the line when another call is stored, or the block ends first', () => {
    expect(useLine(lines, 1, 'compile')).toBe(1);
    expect(useLine(['    stmt = text(q)', 'def other():', '    run(stmt)'], 1, 'text')).toBe(1);
    expect(useLine(['    run(text(q))', '    run(stmt)'], 1, 'text')).toBe(1);
  });
});

/** A servlet that builds a file from a request parameter on line 8 and opens it on line 9. */
const SERVLET = `import java.io.*;
import javax.servlet.http.*;

public class DownloadServlet extends HttpServlet {
    private static final File BASE = new File("/srv/docs");

    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        File target = new File(BASE, req.getParameter("name"));
        try (InputStream in = new FileInputStream(target)) {
            in.transferTo(resp.getOutputStream());
        }
    }
}
`;

describe('a rule and a flow that see one path traversal from its two ends', () => {
  it('say it once, where the file is opened, naming the line the path was built on', () => {
    const findings = securityFindings('src/main/java/DownloadServlet.java', SERVLET);
    expect(findings.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['9 java.flow.path-traversal']);
    expect(findings[0]?.message).toContain('`target` comes from a request parameter on line 8');
  });

  it("keep the rule's comment when the line that opens the file is not part of the change", () => {
    const lines = SERVLET.split('\n');
    const patch = `@@ -1,7 +1,8 @@\n${lines
      .slice(0, 8)
      .map((l, i) => (i === 7 ? `+${l}` : ` ${l}`))
      .join('\n')}`;
    const file: ChangedFile = {
      path: 'src/main/java/DownloadServlet.java',
      status: 'modified',
      additions: 1,
      deletions: 0,
      patch,
      content: SERVLET,
    };
    const { findings } = reviewChange({ files: [file] }, { checkSecurity: true, checkPerformance: false });
    expect(findings.filter((f) => f.type === 'security').map((f) => `${f.line} ${f.ruleId}`)).toEqual([
      '8 java.path-traversal-request',
    ]);
  });
});
