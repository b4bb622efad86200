import { describe, expect, it } from 'vitest';
import { github, PUBLIC_URL, t, useOAuthApps } from './oauth-harness.js';

useOAuthApps();

describe('GitHub sign-in started by the dashboard', () => {
  it('comes back to /app/ with a session cookie instead of a JWT', async () => {
    const user = github.addUser({ login: 'dash-octo', name: 'Dash Octo' });
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/scm?dashboard=true' });
    expect(start.statusCode).toBe(200);
    const { callback } = github.authorize(new URL(start.json().redirect_url), user);
    const res = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/app/`);
    expect(res.body).not.toMatch(/token/);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^redline_session=[0-9A-Za-z]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);

    const cookie = setCookie.split(';')[0] as string;
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.username).toBe('dash-octo');
  });

  it('answers the JWT as before when the dashboard did not start it', async () => {
    const user = github.addUser({ login: 'api-octo' });
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/scm' });
    const { callback } = github.authorize(new URL(start.json().redirect_url), user);
    const res = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toEqual(expect.any(String));
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('names the field when dashboard is not true or false', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/scm?dashboard=yes' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('dashboard');
  });
});
