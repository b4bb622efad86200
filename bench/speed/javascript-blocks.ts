// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** JavaScript (an express router): ordinary blocks, then blocks with a planted problem. */
export const JS_BLOCKS: Block[] = [
  (n, i) => `export async function load${cap(n)}${i}(db, id) {
  const rows = await db.query('SELECT * FROM ${n}s WHERE id = $1', [id]);
  if (rows.length === 0) {
    return null;
  }
  return { ...rows[0], loadedAt: Date.now() };
}
`,
  (n, i) => `export function summarize${cap(n)}s${i}(items, options = {}) {
  const total = items.reduce((sum, item) => sum + (item.amount ?? 0), 0);
  const visible = items.filter((item) => !item.hidden && item.amount > (options.min ?? 0));
  const byStatus = new Map();
  for (const item of visible) {
    const list = byStatus.get(item.status) ?? [];
    list.push(item);
    byStatus.set(item.status, list);
  }
  return { total, count: visible.length, statuses: [...byStatus.keys()].sort() };
}
`,
  (n, i) => `export class ${cap(n)}Cache${i} {
  constructor(ttlMs = 60_000) {
    this.ttlMs = ttlMs;
    this.entries = new Map();
  }

  get(key) {
    const entry = this.entries.get(key);
    if (!entry || entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key, value) {
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }
}
`,
  (n, i) => `router.get('/api/${n}s/:id/${i}', async (req, res, next) => {
  try {
    const ${n} = await service.find${cap(n)}(req.params.id);
    if (!${n}) {
      res.status(404).json({ error: 'not found' });
      return;
    }
    res.json(${n});
  } catch (err) {
    next(err);
  }
});
`,
  (n, i) => `function format${cap(n)}Label${i}(${n}) {
  const parts = [${n}.name, ${n}.code, ${n}.region].filter(Boolean);
  return parts.length > 0 ? parts.join(' / ') : 'unnamed';
}
`,
];

export const JS_PROBLEMS: Block[] = [
  (n, i) => `export async function search${cap(n)}s${i}(db, req) {
  return db.query(\`SELECT * FROM ${n}s WHERE name = '\${req.query.name}'\`);
}
`,
  (n, i) => `function run${cap(n)}Formula${i}(expression) {
  console.log('evaluating', expression);
  return eval(expression);
}
`,
  (n, i) => `function render${cap(n)}${i}(el, req) {
  el.innerHTML = req.query.html;
}
`,
  (n, i) => `function token${cap(n)}${i}() {
  return Math.random().toString(36).slice(2);
}
`,
];
