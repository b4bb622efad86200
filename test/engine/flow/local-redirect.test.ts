import { describe, expect, it } from 'vitest';
import { flowsOf, securityFindings } from './flows-of.js';

/** A Next.js API route redirecting to `returnTo` through a helper whose guard is `check`. */
const nextRoute = (check: string) => `import type { NextApiRequest, NextApiResponse } from 'next';

function safeReturnPath(value: unknown): string {
  if (${check}) return '/';
  return value as string;
}

export default function handler(req: NextApiRequest, res: NextApiResponse) {
  res.redirect(302, safeReturnPath(req.query.returnTo));
}`;

/** A Go handler redirecting to `next` after `check` sent anything else home. */
const goHandler = (check: string) => `package web

import (
	"net/http"
	"strings"
)

func AfterLogin(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	if ${check} {
		next = "/home"
	}
	http.Redirect(w, r, next, http.StatusFound)
}`;

describe('a redirect target checked to be a path on this site', () => {
  it('is no open redirect once it starts with / and neither with // nor with a backslash (JavaScript)', () => {
    expect(
      flowsOf(
        'typescript',
        nextRoute(
          "typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\\\')",
        ),
      ),
    ).toEqual([]);
  });

  it('still is one when a check is missing: // and /\\ lead to another host', () => {
    expect(flowsOf('typescript', nextRoute("typeof value !== 'string' || !value.startsWith('/')"))).toEqual([
      '601@9<-9',
    ]);
    expect(
      flowsOf('typescript', nextRoute("typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')")),
    ).toEqual(['601@9<-9']);
    // The right checks on the wrong branch prove nothing.
    expect(
      flowsOf('typescript', nextRoute("value.startsWith('/') && !value.startsWith('//') && !value.includes('\\\\')")),
    ).toEqual(['601@9<-9']);
  });

  it('reads the same checks in Go, with strings.HasPrefix', () => {
    expect(
      flowsOf(
        'go',
        goHandler('!strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\\\")'),
      ),
    ).toEqual([]);
    expect(flowsOf('go', goHandler('!strings.HasPrefix(next, "/")'))).toEqual(['601@13<-9']);
  });

  it('reads them in Python, with startswith and in', () => {
    const view = (check: string) => `from flask import redirect, request

@app.route("/after")
def after():
    target = request.args.get("next", "/")
    if ${check}:
        target = "/"
    return redirect(target)`;
    expect(
      flowsOf('python', view('not target.startswith("/") or target.startswith("//") or "\\\\" in target')),
    ).toEqual([]);
    expect(flowsOf('python', view('not target.startswith("/")'))).toEqual(['601@8<-5']);
  });
});

describe('a redirect target checked for / and // only', () => {
  const express = `const express = require('express');
const router = express.Router();

router.get('/logout', (req, res) => {
  const next = typeof req.query.next === 'string' ? req.query.next : '/';
  const safe = next.startsWith('/') && !next.startsWith('//') ? next : '/';
  res.redirect(safe);
});
`;

  it('is a warning naming the backslash it misses, not a blocking finding', () => {
    const findings = securityFindings('src/routes/logout.js', express);
    expect(findings.map((f) => [f.line, f.ruleId, f.severity])).toEqual([[7, 'js.flow.open-redirect', 'warning']]);
    expect(findings[0]?.message).toBe(
      'Open redirect: `next` comes from the query string on line 5; it is checked to start with `/` and not `//`, but `/\\evil.example` passes both checks and browsers follow it to another host; reject a backslash too, or redirect only to paths on an allow-list.',
    );
  });

  it('stays important when only the / is checked', () => {
    const findings = securityFindings('src/routes/logout.js', express.replace(" && !next.startsWith('//')", ''));
    expect(findings.map((f) => [f.line, f.severity])).toEqual([[7, 'important']]);
  });

  it("is enough in Rails, whose redirect_to writes this site's host before a path", () => {
    const controller = (check: string) => `class LogoutsController < ApplicationController
  def destroy
    target = params[:return_to].to_s
    target = root_path unless ${check}
    redirect_to target
  end
end
`;
    expect(flowsOf('ruby', controller('target.start_with?("/") && !target.start_with?("//")'))).toEqual([]);
    expect(flowsOf('ruby', controller('target.start_with?("/")'))).toEqual(['601@5<-3']);
  });
});

describe('a URL on the request own origin', () => {
  const route = (body: string) => `import { NextRequest, NextResponse } from 'next/server';

const ALLOWED = new Set(['/', '/dashboard']);

export function GET(request: NextRequest) {
  const wanted = request.nextUrl.searchParams.get('next') ?? '/';
${body}
}
`;

  it('is no redirect elsewhere when an allowed path is resolved against request.url', () => {
    const allowed =
      "  const path = ALLOWED.has(wanted) ? wanted : '/';\n  return NextResponse.redirect(new URL(path, request.url));";
    expect(flowsOf('typescript', route(allowed))).toEqual([]);
    // The base gives the host only when the path is one: a full URL in `wanted` replaces it.
    expect(flowsOf('typescript', route('  return NextResponse.redirect(new URL(wanted, request.url));'))).toEqual([
      '601@7<-6',
    ]);
  });

  it('stays a warning when the checked path is resolved against request.url (/\\host still leaves the site)', () => {
    const resolved = route(`  const safe = wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '/';
  return NextResponse.redirect(new URL(safe, request.url));`);
    const findings = securityFindings('app/r/route.ts', resolved);
    expect(findings.map((f) => [f.line, f.ruleId, f.severity])).toEqual([[8, 'js.flow.open-redirect', 'warning']]);
  });

  it("is checked by comparing the parsed URL's origin with the request's, not with a value the client sent", () => {
    const compared = (other: string) =>
      route(`  const target = new URL(wanted, request.nextUrl.origin);
  if (target.origin !== ${other}) return NextResponse.redirect(new URL('/', request.url));
  return NextResponse.redirect(target);`);
    expect(flowsOf('typescript', compared('request.nextUrl.origin'))).toEqual([]);
    expect(flowsOf('typescript', compared("request.nextUrl.searchParams.get('origin')"))).toEqual(['601@9<-6']);
  });
});

describe("a parsed URL's host compared with a constant", () => {
  const handler = (check: string) => `package web

import (
	"net/http"
	"net/url"
)

func Go(w http.ResponseWriter, r *http.Request) {
	to := r.URL.Query().Get("to")
	u, err := url.Parse(to)
	if err != nil || ${check} {
		http.Error(w, "no", http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, u.String(), http.StatusFound)
}`;

  it('keeps it on the host the code wrote, but an empty host proves nothing (/\\\\host has none)', () => {
    expect(flowsOf('go', handler('u.Hostname() != "docs.example.org"'))).toEqual([]);
    expect(flowsOf('go', handler('u.Host != ""'))).toEqual(['601@15<-9']);
    // Parsed straight from the call that reads it, the URL is checked the same way.
    const inline = handler('u.Hostname() != "docs.example.org"').replace(
      'url.Parse(to)',
      'url.Parse(r.URL.Query().Get("to"))',
    );
    expect(flowsOf('go', inline)).toEqual([]);
  });
});
