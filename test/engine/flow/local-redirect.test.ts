import { describe, expect, it } from 'vitest';
import { flowsOf } from './flows-of.js';

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
