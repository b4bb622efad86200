import type { ServerResponse } from 'node:http';
import type { FakeGitHub } from './fake-github.js';
import type { FakeGitHubStore } from './fake-github-store.js';
import type { FakeEndpoint } from './fake-github-types.js';

/** GitHub pagination: `per_page` (default 30, capped) and `page`, with a Link header to the others. */
export function page(fake: FakeGitHub, res: ServerResponse, url: URL, items: unknown[]) {
  const perPage = Math.min(Number(url.searchParams.get('per_page')) || 30, fake.maxPerPage, 100);
  const page = Math.max(Number(url.searchParams.get('page')) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (n: number, rel: string) => {
    const target = new URL(url);
    target.searchParams.set('per_page', String(perPage));
    target.searchParams.set('page', String(n));
    return `<${target}>; rel="${rel}"`;
  };
  const links = [
    page > 1 && link(page - 1, 'prev'),
    page < last && link(page + 1, 'next'),
    page < last && link(last, 'last'),
    page > 1 && link(1, 'first'),
  ].filter((l): l is string => typeof l === 'string');
  json(res, 200, items.slice((page - 1) * perPage, page * perPage), links.length ? { link: links.join(', ') } : {});
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** Answers as `fake.fail` was told to for `endpoint`, if it was; true when the request is answered. */
export function injectFailure(store: FakeGitHubStore, endpoint: FakeEndpoint, res: ServerResponse): boolean {
  const failure = store.failures.get(endpoint);
  if (failure === undefined) return false;
  if (failure.times !== undefined) {
    if (failure.times <= 1) store.failures.delete(endpoint);
    else failure.times -= 1;
  }
  if ('drop' in failure) {
    res.socket?.destroy();
    return true;
  }
  if ('hang' in failure) return true;
  const text =
    typeof failure.body === 'string' ? failure.body : JSON.stringify(failure.body ?? { message: 'Server Error' });
  res.writeHead(failure.status, {
    'content-type': typeof failure.body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
    ...failure.headers,
  });
  res.end(text);
  return true;
}
