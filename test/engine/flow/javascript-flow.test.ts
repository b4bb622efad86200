import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf, securityFindings } from './flows-of.js';

/** An Express handler around a body; the body starts on line 5. */
const express = (body: string, extra = '', language: 'javascript' | 'typescript' = 'javascript') =>
  flowsOf(
    language,
    `const { exec } = require('child_process');
const fs = require('fs');
const path = require('path');
app.get('/x', async (req, res) => {
${body}
});
${extra}`,
  );

describe('JavaScript taint flows: propagation', () => {
  it('reports the query string concatenated into a SQL query, on the sink line, naming the source line', () => {
    const source = `async function list(req, res) {
  const name = req.query.name;
  const rows = await db.query("select * from users where name = '" + name + "'");
  res.json(rows);
}`;
    expect(fullFlowsOf('javascript', source)).toEqual([
      {
        sinkLine: 3,
        sourceLine: 2,
        sourceDescription: 'the query string',
        cwe: 89,
        sinkKind: 'SQL query',
        variable: 'name',
      },
    ]);
  });

  it('follows re-assignment, template literals, += and the last write winning', () => {
    expect(
      express(`  let dir = req.query.dir;
  let cmd = 'ls ';
  cmd += dir;
  exec(cmd);
  const t = \`cat \${dir}\`;
  exec(t);
  dir = '/tmp';
  exec('ls ' + dir);`),
    ).toEqual(['78@8<-5', '78@10<-5']);
  });

  it('follows object and array destructuring, defaults and rest, field by field', () => {
    expect(
      express(`  const { id, name: n = 'x', ...rest } = req.query;
  exec('a ' + id);
  exec('b ' + n);
  exec('c ' + rest.other);
  const [first, second] = ['fixed', req.body.cmd];
  exec(first);
  exec(second);
  const { safe } = { safe: 'ls', unsafe: req.body.x };
  exec(safe);`),
    ).toEqual(['78@6<-5', '78@7<-5', '78@8<-5', '78@11<-9']);
  });

  it('follows arrays and objects element by element: push, join, spread, a constant index', () => {
    expect(
      express(`  const parts = ['ls'];
  parts.push(req.query.a);
  exec(parts[0]);
  exec(parts[1]);
  exec(parts.join(' '));
  const opts = { dir: req.query.d, mode: 'safe' };
  exec(opts.mode);
  exec(opts.dir);
  const merged = { ...req.body, role: 'user' };
  exec(merged.cmd);
  exec([...parts, 'x'].join(' '));`),
    ).toEqual(['78@8<-6', '78@9<-6', '78@12<-10', '78@14<-13', '78@15<-6']);
  });

  it('takes both branches of a ternary unless its condition is a constant', () => {
    expect(
      express(`  const a = req.query.flag ? req.query.a : 'ls';
  exec(a);
  const b = true ? 'ls' : req.query.b;
  exec(b);
  const DEBUG = false;
  if (DEBUG) exec(req.query.c);
  const d = req.query.d || 'default';
  exec(d);`),
    ).toEqual(['78@6<-5', '78@12<-11']);
  });

  it('keeps taint through string methods, split(...)[0] and slice, and drops it for numbers', () => {
    expect(
      express(`  const q = req.query.q;
  exec(q.trim().toLowerCase());
  exec(q.split(',')[0]);
  exec(q.slice(1).replace('a', 'b'));
  exec('ls ' + q.indexOf('x'));
  exec('ls ' + (q - 1) * 10);`),
    ).toEqual(['78@6<-5', '78@7<-5', '78@8<-5']);
  });

  it('follows same-file functions: declarations, arrows bound to a const, methods through this, object methods', () => {
    expect(
      flowsOf(
        'javascript',
        `const { exec } = require('child_process');
function build(dir) { return 'ls ' + dir; }
const quote = (s) => \`"\${s}"\`;
function fixed(dir) { return 'ls'; }
const utils = { run(cmd) { exec(cmd); } };
class Jobs {
  start(req) {
    exec(build(req.query.a));
    exec(quote(req.query.b));
    exec(fixed(req.query.c));
    this.launch(req.query.d);
    utils.run(req.body.e);
  }
  launch(cmd) { exec(cmd); }
}`,
      ),
    ).toEqual(['78@5<-12', '78@8<-8', '78@9<-9', '78@14<-11']);
  });

  it('reports nothing when only constants reach the sinks', () => {
    expect(
      express(`  const dir = '/var/data';
  const cmd = 'ls ' + dir;
  exec(cmd);
  fs.readFileSync(path.join(__dirname, 'index.html'));
  db.query('select * from users where id = 1');
  res.send('<p>hello</p>');`),
    ).toEqual([]);
  });

  it('reads TypeScript: type annotations, casts and non-null assertions do not hide the value', () => {
    expect(
      express(
        `  const name = req.query.name as string;
  const id: string = req.params.id!;
  const q = <string>req.query.q;
  await db.query(\`select * from t where name = '\${name}'\`);
  await db.query(\`select * from t where id = \${id}\`);
  await db.query('select * from t where q = ' + q);`,
        '',
        'typescript',
      ),
    ).toEqual(['89@8<-5', '89@9<-6', '89@10<-7']);
  });

  it('reads NestJS decorated parameters and Next.js request input', () => {
    expect(
      flowsOf(
        'typescript',
        `import { NextRequest, NextResponse } from 'next/server';
class UsersController {
  @Get(':id')
  async find(@Param('id') id: string, @Query('sort') sort: string, plain: string) {
    await this.db.query(\`select * from users order by \${sort}\`);
    await this.db.query('select * from users where id = ' + plain);
    return this.lookup(id);
  }
  lookup(id: string) {
    return this.db.query('select * from t where id = ' + id);
  }
}
export async function GET(request: NextRequest) {
  const next = request.nextUrl.searchParams.get('next');
  if (!next) return NextResponse.redirect(new URL('/login', request.url));
  return NextResponse.redirect(next);
}`,
      ),
    ).toEqual(['89@5<-4', '89@10<-4', '601@16<-14']);
  });

  it("takes a NestJS parameter converted by a pipe as the number, boolean or UUID it is, and drops a rule's match it alone reaches", () => {
    const controller = `import { Controller, Get, Param, ParseIntPipe, ParseBoolPipe, Query } from '@nestjs/common';
@Controller('invoices')
export class InvoicesController {
  @Get(':year/total')
  total(@Param('year', ParseIntPipe) year: number, @Query('paid', new ParseBoolPipe()) paid: boolean, @Query('tag') tag: string) {
    this.db.query(\`SELECT SUM(total) FROM invoices WHERE year = \${year} AND paid = \${paid}\`);
    return this.db.query(\`SELECT * FROM invoices WHERE tag = '\${tag}'\`);
  }
}`;
    // The unconverted query parameter still reaches its sink; the converted ones reach nothing.
    expect(flowsOf('typescript', controller)).toEqual(['89@7<-5']);
    const found = securityFindings('src/invoices/invoices.controller.ts', controller).map(
      (f) => `${f.ruleId}@${f.line}`,
    );
    expect(found).not.toContain('js.sql-injection@6');
    expect(found.some((f) => f.endsWith('@7'))).toBe(true);
  });

  it('reads Koa and Fastify request input', () => {
    expect(
      flowsOf(
        'javascript',
        `router.get('/k', async (ctx) => {
  const { name } = ctx.query;
  ctx.body = \`<h1>\${name}</h1>\`;
  ctx.body = \`Hello \${name}\`;
  await Model.updateOne({ user: ctx.request.body.user }, { $set: { seen: true } });
});
fastify.get('/f', async (request, reply) => {
  return db.query('select * from t where id = ' + request.params.id);
});`,
      ),
    ).toEqual(['79@3<-2', '943@5<-5', '89@8<-8']);
  });
});
