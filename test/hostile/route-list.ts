import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The route's pattern as registered (`/v1/reviews/:id`, `/docs/*`). */
  url: string;
}

/**
 * Every route the app answers, read from fastify's own router (`printRoutes`), so a route added
 * anywhere (documented or hidden, a plugin's included) is listed without anyone updating a table.
 * The tree prints each node's path relative to its parent, four columns per level.
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const branch = line.search(/[├└]── /);
    if (branch === -1) continue;
    const depth = branch / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(branch + 4));
    if (match?.[1] === undefined) throw new Error(`Unexpected route line: ${line}`);
    const url = (depth === 0 ? '' : (stack[depth - 1] ?? '')) + match[1];
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of match[2]?.split(', ') ?? [])
      routes.push({ method, url: url.endsWith('*') && !url.endsWith('/*') ? `${url.slice(0, -1)}/*` : url });
  }
  return routes.sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
}
