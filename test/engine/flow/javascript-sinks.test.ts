import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../../src/engine/review-change.js';
import { flowsOf } from './flows-of.js';

/** An Express handler around a body, with the usual imports; the body starts on line 8. */
const handler = (body: string) =>
  flowsOf(
    'javascript',
    `import { exec, spawn } from 'node:child_process';
import fs from 'fs';
import path from 'path';
import escapeHtml from 'escape-html';
import he from 'he';
import validator from 'validator';
router.post('/x', async (req, res) => {
${body}
});`,
  );

describe('JavaScript taint flows: sinks', () => {
  it("takes a query builder's raw fragment as SQL whatever starts it, not the bindings beside it", () => {
    expect(
      handler(`  const actor = String(req.query.actor ?? '');
  await db('audit_log').whereRaw(\`actor = '\${actor}' AND created_at > now()\`);
  await db('audit_log').whereRaw('actor = ?', [actor]);
  await db('t').orderByRaw(req.query.sort + ' desc');
  await pool.query('-- ' + actor);`),
    ).toEqual(['89@9<-8', '89@11<-11']);
  });

  it("reads Hono's c.req input: query, path parameter, body and header", () => {
    expect(
      flowsOf(
        'javascript',
        `import { exec } from 'node:child_process';
app.get('/img', async (c) => {
  const src = c.req.query('src');
  const upstream = await fetch(src);
  const { sql } = await c.req.json();
  await db.query(sql);
  exec('convert ' + c.req.header('x-format'));
  await fetch('https://img.example.org/' + encodeURIComponent(c.req.param('id')));
  return c.body(upstream.body);
});`,
      ),
    ).toEqual(['918@4<-3', '89@6<-5', '78@7<-7']);
  });

  it("reads the page's URL in browser code into its markup and code, not into the requests it sends", () => {
    expect(
      flowsOf(
        'javascript',
        `import escapeHtml from 'escape-html';
export function renderWidget(el) {
  const params = new URLSearchParams(window.location.search);
  const callback = params.get('onload') ?? 'void 0';
  setTimeout(callback, 100);
  el.innerHTML = '<h2>' + decodeURIComponent(location.hash.slice(1)) + '</h2>';
  document.write(document.referrer);
  fetch('/api/items?' + params.toString());
  fetch(location.href + '/data.json');
  el.innerHTML = '<h2>' + escapeHtml(params.get('title')) + '</h2>';
  setTimeout(() => el.remove(), Number(params.get('ttl')));
}`,
      ),
    ).toEqual(['95@5<-3', '79@6<-6', '79@7<-7']);
  });

  it("takes a formatting function's pattern as the text's start, not the pattern a value formats itself with", () => {
    expect(
      flowsOf(
        'javascript',
        `const util = require('node:util');
const dayjs = require('dayjs');
router.get('/x', (req, res) => {
  const when = dayjs(req.query.at);
  res.send(when.format('<p>YYYY-MM-DD</p>'));
  res.send(util.format('<p>%s</p>', req.query.name));
  res.send(util.format('Hello %s', req.query.name));
});`,
      ),
    ).toEqual(['79@6<-6']);
  });

  it("sends markup through Fastify's reply and its chains, and reads a list joined into text by its first element", () => {
    expect(
      handler(`  const page = ['<h1>Not found</h1><p>', req.url, '</p>'].join('');
  reply.code(404).type('text/html').send(page);
  reply.code(404).send({ error: req.url });
  reply.send(['{"path":"', req.url, '"}'].join(''));
  res.write(['<ul>', req.query.item, '</ul>'].join('\\n'));`),
    ).toEqual(['79@9<-8', '79@12<-12']);
  });

  it('knows an LDAP filter given to search and an XPath expression, not a search or evaluate of anything else', () => {
    expect(
      handler(`  const uid = req.query.uid;
  client.search('ou=people,dc=example,dc=org', { filter: \`(&(objectClass=person)(uid=\${uid}))\`, scope: 'sub' }, done);
  client.search('ou=people', { filter: '(uid=admin)', attributes: [uid] }, done);
  const nodes = xpath.select("//product[@sku='" + uid + "']/name", doc);
  doc.evaluate(\`//user[@id='\${uid}']\`, doc, null, 9, null);
  index.search(uid, { limit: 10 });
  page.evaluate(uid);
  xpath.select("//product[@sku='a']", doc);`),
    ).toEqual(['90@9<-8', '643@11<-8', '643@12<-8']);
  });

  it('knows each sink with its CWE, and the safe forms beside it', () => {
    expect(
      handler(`  const v = req.query.v;
  await pool.query('select * from t where id = ' + v);
  await pool.query('select * from t where id = $1', [v]);
  await pool.query({ text: 'select * from t where id = $1', values: [v] });
  await knex.raw(\`select * from t where name = '\${v}'\`);
  await prisma.$queryRawUnsafe('select * from t where id = ' + v);
  exec(\`git log \${v}\`);
  spawn('git', ['log', v]);
  spawn('git log ' + v, [], { shell: true });
  eval(v);
  setTimeout(() => v, 10);
  fs.readFile(path.join('/srv', v), () => {});
  res.sendFile(v, { root: '/srv/public' });
  await fetch(v);
  await fetch('https://api.example.com/items/' + v);
  res.redirect(v);
  res.redirect('/items/' + v);
  res.redirect(req.get('Referrer') || '/');
  res.download(v, { root: '/srv/public' }, (err) => {});
  res.send(\`<p>\${v}</p>\`);
  res.send({ value: v });
  User.find({ name: req.body.name });
  User.findOne({ where: { name: req.body.name } });
  User.findOne({ _id: req.params.id });`),
    ).toEqual([
      '89@9<-8',
      '89@12<-8',
      '89@13<-8',
      '78@14<-8',
      '78@16<-8',
      '95@17<-8',
      '22@19<-8',
      '918@21<-8',
      '601@23<-8',
      '79@27<-8',
      '943@29<-29',
    ]);
  });

  it('takes a response body for HTML only when it starts with markup, += keeping its start', () => {
    expect(
      handler(`  const v = req.query.v;
  let html = '<ul>';
  html += '<li>' + v + '</li>';
  res.send(html);
  res.send(await lookup(v));
  res.end('Hello ' + v);`),
    ).toEqual(['79@11<-8']);
  });

  it('follows a response through the calls that return it (status, type, header) to send and redirect', () => {
    expect(
      handler(`  const page = req.query.page;
  res.status(404).send('<p>No page called ' + page + '</p>');
  res.status(404).type('html').header('X-A', '1').send('<p>' + page + '</p>');
  res.status(302).redirect(page);
  res.status(404).json({ page });`),
    ).toEqual(['79@9<-8', '79@10<-8', '601@11<-8']);
  });

  it('knows template compilation, unsafe deserialisation and DOM writes', () => {
    expect(
      flowsOf(
        'javascript',
        `const ejs = require('ejs');
const serialize = require('node-serialize');
app.post('/t', (req, res) => {
  const page = ejs.render(req.body.template, {});
  ejs.render('<p><%= name %></p>', { name: req.body.name });
  serialize.unserialize(req.cookies.profile);
  el.innerHTML = req.query.html;
  el.textContent = req.query.html;
});`,
      ),
    ).toEqual(['1336@4<-4', '502@6<-6', '79@7<-7']);
  });
});

describe('JavaScript taint flows: sanitizers and checks', () => {
  it('ends taint at number conversion: parseInt, Number, parseFloat, unary plus', () => {
    expect(
      handler(`  const v = req.query.v;
  exec('ls ' + parseInt(v, 10));
  exec('ls ' + Number(v));
  exec('ls ' + parseFloat(v));
  exec('ls ' + +v);
  exec('ls ' + v);`),
    ).toEqual(['78@13<-8']);
  });

  it('ends taint for the CWE an escape is for, and only that one', () => {
    expect(
      handler(`  const v = req.query.v;
  res.send('<p>' + escapeHtml(v));
  res.send('<p>' + he.encode(v));
  res.send('<p>' + validator.escape(v));
  res.send('<p>' + DOMPurify.sanitize(v));
  res.redirect('/search?q=' + encodeURIComponent(v));
  res.redirect(encodeURIComponent(v));
  exec('echo ' + escapeHtml(v));
  res.send('<p>' + v.trim());`),
    ).toEqual(['78@15<-8', '79@16<-8']);
  });

  it("ends taint for HTML through html-escaper's and escape-goat's escapes, however imported", () => {
    expect(
      flowsOf(
        'javascript',
        `const { escape } = require('html-escaper');
const { htmlEscape } = require('escape-goat');
router.get('/welcome', (ctx) => {
  ctx.type = 'html';
  ctx.body = '<p>Welcome back, ' + escape(String(ctx.query.name || '')) + '!</p>';
  ctx.body = '<p>Hi ' + htmlEscape(ctx.query.name) + '</p>';
  ctx.body = '<p>Bye ' + ctx.query.name + '</p>';
});`,
      ),
    ).toEqual(['79@7<-7']);
  });

  it('takes a basename, or a resolved path checked against its base, as safe for file paths', () => {
    expect(
      handler(`  const base = '/srv/files';
  fs.readFileSync(path.join(base, path.basename(req.query.f)));
  const full = path.resolve(base, req.query.g);
  if (!full.startsWith(base)) return res.status(403).end();
  fs.readFileSync(full);
  const raw = req.query.h;
  if (!raw.startsWith(base)) return res.status(403).end();
  fs.readFileSync(raw);`),
    ).toEqual(['22@15<-13']);
  });

  it('takes an allow-list check and a rejected ".." as safe where they hold', () => {
    expect(
      handler(`  const ALLOWED = ['name', 'date'];
  const COLUMNS = new Set(['name', 'date']);
  const sort = req.query.sort;
  if (ALLOWED.includes(sort)) await db.query('select * from t order by ' + sort);
  const by = req.query.by;
  if (COLUMNS.has(by)) await db.query('select * from t order by ' + by);
  await db.query('select * from t order by ' + sort);
  const name = req.query.name;
  if (name.includes('..')) return res.status(400).end();
  fs.readFileSync('/srv/' + name);
  if (req.query.list.includes(sort)) exec('ls ' + sort);`),
    ).toEqual(['89@14<-10', '78@18<-10']);
  });
});

describe('JavaScript flow findings in a review', () => {
  it('reports a flow the pattern rules miss, through a helper, as js.flow.* with the source line', () => {
    const content = `function back(res, to) {
  res.redirect(to);
}
app.get('/login', (req, res) => {
  const next = req.query.next;
  back(res, next);
});
`;
    const lines = content.trimEnd().split('\n');
    const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}`;
    const { findings } = reviewChange(
      {
        files: [
          { path: 'src/routes/login.js', status: 'added', additions: lines.length, deletions: 0, patch, content },
        ],
      },
      { checkSecurity: true, checkPerformance: false },
    );
    const flow = findings.filter((f) => f.ruleId.startsWith('js.flow.'));
    expect(flow).toHaveLength(1);
    expect(flow[0]).toMatchObject({ ruleId: 'js.flow.open-redirect', line: 2, cwe: 'CWE-601', severity: 'important' });
    expect(flow[0]?.message).toContain('`next` comes from the query string on line 5 and reaches this redirect');
  });

  it('leaves a flow through a helper to the rule that reports it at the call', () => {
    const content = `const { readFile } = require('fs/promises');
const readBundle = (lang) => readFile(\`/srv/locales/\${lang}.json\`, 'utf8');
router.get('/locales/:lang', async (req, res) => {
  res.type('json').send(await readBundle(req.params.lang));
});
`;
    const lines = content.trimEnd().split('\n');
    const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}`;
    const { findings } = reviewChange(
      {
        files: [
          { path: 'src/routes/locales.js', status: 'added', additions: lines.length, deletions: 0, patch, content },
        ],
      },
      { checkSecurity: true, checkPerformance: false },
    );
    expect(findings.filter((f) => f.cwe === 'CWE-22').map((f) => `${f.ruleId}@${f.line}`)).toEqual([
      'js.path-traversal-helper@4',
    ]);
  });
});
