import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf, servlet } from './flows-of.js';

const java = (body: string, extra = '') => flowsOf('java', servlet(body, extra));

describe('weak random (CWE 330), Java', () => {
  it('reports java.util.Random through toString and substring into a cookie and the session, naming the source', () => {
    const flows = fullFlowsOf(
      'java',
      servlet(`    float rand = new java.util.Random().nextFloat();
    String key = Float.toString(rand).substring(2);
    Cookie c = new javax.servlet.http.Cookie("remember", key);
    c.setSecure(true);
    response.addCookie(c);
    request.getSession().setAttribute("remember", key);`),
    );
    expect(flows).toEqual([
      {
        sinkLine: 6,
        sourceLine: 4,
        sourceDescription: 'a predictable random generator',
        cwe: 330,
        sinkKind: 'cookie value',
        variable: 'rand',
      },
      expect.objectContaining({ sinkLine: 9, sourceLine: 4, cwe: 330, sinkKind: 'session attribute' }),
    ]);
  });

  it('reports Math.random into a response header and a password setter, and a buffer nextBytes filled', () => {
    expect(
      java(`    double r = Math.random();
    response.setHeader("X-Token", "t" + r);
    user.setResetToken(Long.toHexString(Double.doubleToLongBits(r)));
    byte[] buf = new byte[16];
    new java.util.Random().nextBytes(buf);
    response.addHeader("X-Nonce", java.util.Base64.getEncoder().encodeToString(buf));`),
    ).toEqual(['330@5<-4', '330@6<-4', '330@9<-8']);
  });

  it('does not report a weak random number used for shuffling, jitter or an index', () => {
    expect(
      java(`    java.util.Random rnd = new java.util.Random();
    java.util.Collections.shuffle(items, rnd);
    Thread.sleep(100 + rnd.nextInt(50));
    String pick = names[rnd.nextInt(names.length)];
    response.getWriter().println("Your card: " + rnd.nextInt(52));`),
    ).toEqual([]);
  });

  it('does not report SecureRandom or UUID.randomUUID, however the generator is declared', () => {
    expect(
      java(`    java.util.Random gen = java.security.SecureRandom.getInstance("SHA1PRNG");
    Cookie a = new Cookie("a", Integer.toString(gen.nextInt()));
    double d = new java.security.SecureRandom().nextDouble();
    request.getSession().setAttribute("b", "" + d);
    response.setHeader("X-Id", java.util.UUID.randomUUID().toString());`),
    ).toEqual([]);
  });

  it('follows a same-file helper that draws from the generator it is given', () => {
    const extra = `  double next(java.util.Random generator) {
    return generator.nextDouble();
  }`;
    expect(
      java(
        `    String weak = Double.toString(next(new java.util.Random()));
    request.getSession().setAttribute("k", weak);
    String strong = Double.toString(next(java.security.SecureRandom.getInstance("SHA1PRNG")));
    request.getSession().setAttribute("k", strong);`,
        extra,
      ),
    ).toEqual(['330@5<-10']);
  });

  it('follows a helper that makes the token when the caller reads no source itself', () => {
    const source = `class Tokens {
  static String token() {
    return Long.toString(new java.util.Random().nextLong(), 36);
  }
  void login(javax.servlet.http.HttpServletResponse response) {
    response.addCookie(new javax.servlet.http.Cookie("session", token()));
  }
}`;
    // Sent without Secure too: a token is a credential.
    expect(flowsOf('java', source)).toEqual(['330@6<-3', '614@6<-3']);
  });

  it('takes the branch a constant decides: the secure generator', () => {
    expect(
      java(`    java.util.Random gen;
    if (7 * 6 > 40) gen = new java.security.SecureRandom();
    else gen = new java.util.Random();
    String code = "" + gen.nextInt(1000000);
    request.getSession().setAttribute("otp", code);
    String other = (2 > 3) ? "" + Math.random() : "fixed";
    response.setHeader("X-Other", other);`),
    ).toEqual([]);
  });

  it('keeps a weak random value and request input apart: neither reaches the other kind of sink', () => {
    expect(
      java(`    String p = request.getParameter("p");
    String r = Integer.toString(new java.util.Random().nextInt());
    Cookie c = new Cookie("pref", p);
    c.setSecure(true);
    response.addCookie(c);
    java.sql.Statement st = conn.createStatement();
    st.executeQuery("select * from t where id = " + r);
    String both = p + r;
    st.executeQuery("select * from t where k = '" + both + "'");
    request.getSession().setAttribute("k", Integer.parseInt(both));`),
    ).toEqual(['89@12<-4', '330@13<-5']);
  });
});

describe('weak random (CWE 330), Python', () => {
  const view = (body: string, extra = '') =>
    flowsOf(
      'python',
      `import random, secrets
from flask import request, session, make_response

def view():
${body}
    return "ok"
${extra}`,
    );

  it('reports random.* through str, slicing, f-strings and int into a cookie, the session and a password', () => {
    expect(
      view(`    value = str(random.random())[2:]
    resp = make_response("hi")
    resp.set_cookie("remember", f"v-{value}", secure=True)
    session["token"] = hex(int(random.getrandbits(32)))
    user.set_password("".join(random.choice("abcdef") for _ in range(12)))`),
    ).toEqual(['330@7<-5', '330@8<-8', '330@9<-9']);
  });

  it('reports a store named like a session, and names imported from random', () => {
    const source = `from random import randint
from app.store import user_session

def remember(key):
    user_session[key] = str(randint(0, 2**32))
`;
    expect(flowsOf('python', source)).toEqual(['330@5<-5']);
  });

  it('does not report random for shuffling, sampling, jitter or games', () => {
    expect(
      view(`    items = [1, 2, 3]
    random.shuffle(items)
    time.sleep(random.uniform(0, 0.5))
    winner = random.choice(players)
    return f"{winner} rolled {random.randint(1, 6)}"`),
    ).toEqual([]);
  });

  it('does not report secrets, os.urandom or SystemRandom into the session', () => {
    expect(
      view(`    session["a"] = secrets.token_hex(16)
    session["b"] = str(random.SystemRandom().randint(0, 2**32))
    rng = random.SystemRandom()
    session["c"] = str(rng.random())[2:]
    session["d"] = os.urandom(16).hex()`),
    ).toEqual([]);
  });

  it('follows a same-file helper, and takes the branch a constant decides', () => {
    expect(
      view(
        `    session["weak"] = make_token(False)
    session["strong"] = make_token(True)`,
        `
def make_token(strong):
    if strong:
        return secrets.token_urlsafe(16)
    return str(random.randint(0, 10**8))
`,
      ),
    ).toEqual(['330@5<-12']);
  });
});
