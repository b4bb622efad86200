import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf, servlet } from './flows-of.js';

const java = (body: string, extra = '') => flowsOf('java', servlet(body, extra));

describe('cookies without Secure (CWE 614), Java', () => {
  it('reports setSecure(false) at addCookie, naming the line that turned it off, whatever the value', () => {
    const flows = fullFlowsOf(
      'java',
      servlet(`    String v = request.getParameter("v");
    javax.servlet.http.Cookie cookie = new javax.servlet.http.Cookie("pref", v);
    cookie.setSecure(false);
    cookie.setHttpOnly(true);
    response.addCookie(cookie);`),
    );
    expect(flows).toEqual([
      { sinkLine: 8, sourceLine: 6, cwe: 614, sinkKind: 'cookie', sourceDescription: 'its flag turned off' },
    ]);
  });

  it('does not report setSecure(true), nor a flag a constant folds to true', () => {
    expect(
      java(`    Cookie a = new Cookie("a", java.util.UUID.randomUUID().toString());
    a.setSecure(true);
    response.addCookie(a);
    boolean secure = 3 > 2;
    Cookie b = new Cookie("b", "x");
    b.setSecure(secure);
    response.addCookie(b);`),
    ).toEqual([]);
  });

  it('reports a session id sent in a cookie never made Secure, not one made Secure where served over HTTPS, nor a plain value', () => {
    expect(
      java(`    Cookie sid = new Cookie("SID", request.getSession().getId());
    response.addCookie(sid);
    Cookie t = new Cookie("t", java.util.UUID.randomUUID().toString());
    if (request.isSecure()) t.setSecure(true);
    response.addCookie(t);
    Cookie theme = new Cookie("theme", "dark");
    response.addCookie(theme);`),
    ).toEqual(['614@5<-4']);
  });
});

describe('cookies without Secure (CWE 614), Python', () => {
  const view = (body: string) =>
    flowsOf(
      'python',
      `import secrets
from flask import request, make_response

def view():
    resp = make_response("ok")
${body}
    return resp
`,
    );

  it('reports secure=False (keyword or positional) whatever the value, not secure=True', () => {
    expect(
      view(`    resp.set_cookie("pref", request.args.get("p"), secure=False, httponly=True)
    resp.set_cookie("a", "b", None, None, "/", None, False)
    resp.set_cookie("c", secrets.token_hex(16), secure=True)
    resp.set_cookie("d", "e", secure=1 > 2)`),
    ).toEqual(['614@6<-6', '614@7<-7', '614@9<-9']);
  });

  it('reports a secure token in a cookie without secure=, but not a plain value or a flag set from elsewhere', () => {
    expect(
      view(`    resp.set_cookie("session", secrets.token_urlsafe(32))
    resp.set_cookie("lang", request.args.get("lang", "en"))
    resp.set_cookie("sid", secrets.token_hex(16), secure=request.is_secure)
    response.set_cookie(key="k", value=str(uuid.uuid4()), httponly=True)`),
    ).toEqual(['614@6<-6', '614@9<-9']);
  });

  it('says in the comment that the flag was turned off', async () => {
    const { flowFindings } = await import('../../../src/engine/flow/flow-findings.js');
    const { parseSource } = await import('../../../src/engine/rules/ast-grep.js');
    const source = `def view(resp):
    resp.set_cookie("a", "b", secure=False)
`;
    const [finding] = flowFindings('python', parseSource('python', source).root(), 'app.py', source, (l) => l);
    expect(finding).toMatchObject({ ruleId: 'py.flow.insecure-cookie', severity: 'warning', cwe: 'CWE-614', line: 2 });
    expect(finding?.message).toContain('Secure flag is turned off');
  });

  it("is reported where a Java cookie's flag is turned off, naming the line that sends it", async () => {
    const { securityFindings } = await import('./flows-of.js');
    const source = `import javax.servlet.http.*;

public final class SessionCookies {
    public static void issue(HttpServletResponse resp, String token) {
        Cookie cookie = new Cookie("SESSION", token);
        cookie.setSecure(false);
        resp.addCookie(cookie);
    }
}
`;
    const findings = securityFindings('src/main/java/SessionCookies.java', source);
    expect(findings.map((f) => [f.line, f.ruleId, f.severity])).toEqual([[6, 'java.flow.insecure-cookie', 'warning']]);
    expect(findings[0]?.message).toBe(
      "Cookie without Secure: this cookie's Secure flag is turned off here and the cookie is sent on line 7, so it also goes over plain HTTP; set Secure on it (and HttpOnly unless a script must read it) so it is never sent over plain HTTP.",
    );
  });
});
