// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
/**
 * A large, deterministic change for bench/engine-speed: new files in six languages, ordinary code
 * (services, handlers, helpers, data classes) with a few planted problems, as GitHub would send
 * them (`status: added`, a patch of `+` lines, and the file's content).
 */
import type { ChangedFile } from '../../src/engine/types.js';

export type SpeedLanguage = 'javascript' | 'typescript' | 'python' | 'go' | 'java' | 'ruby';

export const SPEED_LANGUAGES: readonly SpeedLanguage[] = ['javascript', 'typescript', 'python', 'go', 'java', 'ruby'];

const EXTENSION: Record<SpeedLanguage, string> = {
  javascript: 'js',
  typescript: 'ts',
  python: 'py',
  go: 'go',
  java: 'java',
  ruby: 'rb',
};

export interface GeneratedFile {
  file: ChangedFile;
  language: SpeedLanguage;
  lines: number;
}

/** mulberry32: a small seeded generator, so every run reviews the same change. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = ['user', 'order', 'invoice', 'account', 'session', 'report', 'product', 'payment', 'ticket', 'project'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type Block = (n: string, i: number) => string;

const JS_BLOCKS: Block[] = [
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

const JS_PROBLEMS: Block[] = [
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

const TS_BLOCKS: Block[] = [
  (n, i) => `export interface ${cap(n)}Record${i} {
  id: string;
  name: string;
  createdAt: Date;
  tags: readonly string[];
  owner?: string | undefined;
}
`,
  (
    n,
    i,
  ) => `export async function fetch${cap(n)}${i}(client: HttpClient, id: string): Promise<${cap(n)}Record${i} | undefined> {
  const response = await client.get(\`/${n}s/\${encodeURIComponent(id)}\`);
  if (response.status === 404) {
    return undefined;
  }
  if (response.status >= 500) {
    throw new Error(\`${n} service failed with \${response.status}\`);
  }
  return parse${cap(n)}(response.body);
}
`,
  (n, i) => `export class ${cap(n)}Repository${i} {
  readonly #items = new Map<string, ${cap(n)}Record${i}>();

  add(item: ${cap(n)}Record${i}): void {
    if (this.#items.has(item.id)) {
      throw new Error(\`duplicate ${n} \${item.id}\`);
    }
    this.#items.set(item.id, item);
  }

  byTag(tag: string): ${cap(n)}Record${i}[] {
    return [...this.#items.values()].filter((item) => item.tags.includes(tag));
  }

  get size(): number {
    return this.#items.size;
  }
}
`,
  (
    n,
    i,
  ) => `export function pick${cap(n)}Fields${i}<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) {
    out[key] = value[key];
  }
  return out;
}
`,
  (n, i) => `const ${n}Status${i}: Record<string, number> = {
  pending: 0,
  active: 1,
  archived: 2,
};
`,
];

const TS_PROBLEMS: Block[] = [
  (n, i) => `export async function purge${cap(n)}s${i}(db: Db, ids: string[]): Promise<void> {
  for (const id of ids) {
    await db.delete${cap(n)}(id);
  }
}
`,
  (n, i) => `export function check${cap(n)}${i}(a: number): boolean {
  if (a === a) {
    return true;
  }
  return false;
}
`,
  (n, i) => `export function runJob${cap(n)}${i}(name: string): void {
  exec('node scripts/' + name + '.js');
}
`,
  (n, i) => `export function save${cap(n)}${i}(data: string): void {
  try {
    writeFileSync('/tmp/${n}.json', data);
  } catch (e) {}
}
`,
];

const PY_BLOCKS: Block[] = [
  (n, i) => `def load_${n}_${i}(conn, ${n}_id):
    row = conn.execute("SELECT * FROM ${n}s WHERE id = ?", (${n}_id,)).fetchone()
    if row is None:
        return None
    return dict(row)


`,
  (n, i) => `class ${cap(n)}Service${i}:
    def __init__(self, repository, clock=None):
        self.repository = repository
        self.clock = clock or time.time

    def active(self):
        return [item for item in self.repository.all() if item.active]

    def totals(self):
        totals = {}
        for item in self.active():
            totals[item.status] = totals.get(item.status, 0) + item.amount
        return totals


`,
  (n, i) => `def format_${n}_${i}(${n}, width=40):
    name = ${n}.get("name") or "unnamed"
    code = ${n}.get("code", "")
    label = f"{name} ({code})" if code else name
    return label[:width]


`,
  (n, i) => `@app.route("/${n}s/<int:${n}_id>/${i}")
def show_${n}_${i}(${n}_id):
    ${n} = repository.find(${n}_id)
    if ${n} is None:
        abort(404)
    return jsonify(${n}.to_dict())


`,
];

const PY_PROBLEMS: Block[] = [
  (n, i) => `def search_${n}_${i}(conn, name):
    return conn.execute(f"SELECT * FROM ${n}s WHERE name = '{name}'").fetchall()


`,
  (n, i) => `def run_${n}_${i}(cmd):
    return subprocess.run(cmd, shell=True, check=False)


`,
  (n, i) => `def read_${n}_${i}(blob):
    return pickle.loads(blob)


`,
  (n, i) => `def digest_${n}_${i}(value):
    return hashlib.md5(value.encode()).hexdigest()


`,
];

const GO_BLOCKS: Block[] = [
  (n, i) => `func Load${cap(n)}${i}(ctx context.Context, db *sql.DB, id int64) (*${cap(n)}, error) {
	row := db.QueryRowContext(ctx, "SELECT id, name FROM ${n}s WHERE id = $1", id)
	var out ${cap(n)}
	if err := row.Scan(&out.ID, &out.Name); err != nil {
		return nil, fmt.Errorf("load ${n} %d: %w", id, err)
	}
	return &out, nil
}

`,
  (n, i) => `type ${cap(n)}Store${i} struct {
	mu    sync.Mutex
	items map[string]${cap(n)}
}

func (s *${cap(n)}Store${i}) Put(key string, value ${cap(n)}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.items == nil {
		s.items = make(map[string]${cap(n)})
	}
	s.items[key] = value
}

func (s *${cap(n)}Store${i}) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

`,
  (n, i) => `func Sum${cap(n)}s${i}(items []${cap(n)}) int {
	total := 0
	for _, item := range items {
		if item.Hidden {
			continue
		}
		total += item.Amount
	}
	return total
}

`,
];

const GO_PROBLEMS: Block[] = [
  (n, i) => `func Find${cap(n)}${i}(db *sql.DB, name string) (*sql.Rows, error) {
	return db.Query("SELECT * FROM ${n}s WHERE name = '" + name + "'")
}

`,
  (n, i) => `func Run${cap(n)}${i}(script string) error {
	return exec.Command("sh", "-c", script).Run()
}

`,
  (n, i) => `func Client${cap(n)}${i}() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
}

`,
];

const JAVA_BLOCKS: Block[] = [
  (n, i) => `    public Optional<${cap(n)}> find${cap(n)}${i}(long id) {
        try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM ${n}s WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(map${cap(n)}(rs));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load ${n} " + id, e);
        }
    }

`,
  (n, i) => `    public List<${cap(n)}> active${cap(n)}s${i}(List<${cap(n)}> items) {
        List<${cap(n)}> out = new ArrayList<>();
        for (${cap(n)} item : items) {
            if (item.isActive() && item.getAmount() > 0) {
                out.add(item);
            }
        }
        out.sort(Comparator.comparing(${cap(n)}::getName));
        return out;
    }

`,
  (n, i) => `    private static String label${cap(n)}${i}(${cap(n)} value) {
        StringBuilder builder = new StringBuilder();
        builder.append(value.getName());
        if (value.getCode() != null) {
            builder.append(" (").append(value.getCode()).append(')');
        }
        return builder.toString();
    }

`,
];

const JAVA_PROBLEMS: Block[] = [
  (n, i) => `    public ResultSet search${cap(n)}${i}(Statement statement, String name) throws SQLException {
        return statement.executeQuery("SELECT * FROM ${n}s WHERE name = '" + name + "'");
    }

`,
  (n, i) => `    public Process run${cap(n)}${i}(String command) throws IOException {
        return Runtime.getRuntime().exec(command);
    }

`,
  (n, i) => `    public byte[] digest${cap(n)}${i}(byte[] data) throws Exception {
        return MessageDigest.getInstance("MD5").digest(data);
    }

`,
];

const RUBY_BLOCKS: Block[] = [
  (n, i) => `  def load_${n}_${i}(id)
    record = ${cap(n)}.find_by(id: id)
    return nil if record.nil?

    record.attributes.merge("loaded_at" => Time.now.utc)
  end

`,
  (n, i) => `  def totals_${n}_${i}(items)
    totals = Hash.new(0)
    items.each do |item|
      next if item.hidden?

      totals[item.status] += item.amount
    end
    totals
  end

`,
  (n, i) => `  def label_${n}_${i}(${n})
    parts = [${n}.name, ${n}.code].compact
    parts.empty? ? "unnamed" : parts.join(" / ")
  end

`,
];

const RUBY_PROBLEMS: Block[] = [
  (n, i) => `  def search_${n}_${i}(name)
    ${cap(n)}.where("name = '#{params[:name]}'")
  end

`,
  (n, i) => `  def run_${n}_${i}(cmd)
    system("convert #{params[:file]} out.png")
  end

`,
  (n, i) => `  def restore_${n}_${i}(blob)
    Marshal.load(blob)
  end

`,
];

interface LanguageShape {
  header: (name: string) => string;
  footer: string;
  blocks: Block[];
  problems: Block[];
  dir: string;
}

const SHAPES: Record<SpeedLanguage, LanguageShape> = {
  javascript: {
    header: () =>
      "import express from 'express';\nimport { service } from './service.js';\n\nconst router = express.Router();\n\n",
    footer: 'export default router;\n',
    blocks: JS_BLOCKS,
    problems: JS_PROBLEMS,
    dir: 'web/src/routes',
  },
  typescript: {
    header: () =>
      "import { exec } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';\nimport type { Db, HttpClient } from '../types.js';\nimport { parseUser as parseOrder, parseUser, parseUser as parseInvoice } from './parse.js';\n\n",
    footer: '',
    blocks: TS_BLOCKS,
    problems: TS_PROBLEMS,
    dir: 'api/src/services',
  },
  python: {
    header: () =>
      'import hashlib\nimport pickle\nimport subprocess\nimport time\n\nfrom flask import abort, jsonify\n\nfrom .app import app, repository\n\n\n',
    footer: '',
    blocks: PY_BLOCKS,
    problems: PY_PROBLEMS,
    dir: 'service/app/handlers',
  },
  go: {
    header: (name) =>
      `package ${name}\n\nimport (\n\t"context"\n\t"crypto/tls"\n\t"database/sql"\n\t"fmt"\n\t"net/http"\n\t"os/exec"\n\t"sync"\n)\n\n`,
    footer: '',
    blocks: GO_BLOCKS,
    problems: GO_PROBLEMS,
    dir: 'internal',
  },
  java: {
    header: (name) =>
      `package com.acme.${name};\n\nimport java.sql.*;\nimport java.util.*;\nimport java.security.MessageDigest;\n\npublic class ${cap(name)}Service {\n    private final Connection connection;\n\n    public ${cap(name)}Service(Connection connection) {\n        this.connection = connection;\n    }\n\n`,
    footer: '}\n',
    blocks: JAVA_BLOCKS,
    problems: JAVA_PROBLEMS,
    dir: 'src/main/java/com/acme',
  },
  ruby: {
    header: (name) => `class ${cap(name)}Controller < ApplicationController\n`,
    footer: 'end\n',
    blocks: RUBY_BLOCKS,
    problems: RUBY_PROBLEMS,
    dir: 'app/controllers',
  },
};

/** A patch for a new file: one hunk of `+` lines, as GitHub sends it. */
function addedPatch(content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return `@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@\n${lines.map((l) => `+${l}`).join('\n')}`;
}

function generateFile(language: SpeedLanguage, index: number, target: number, rand: () => number): GeneratedFile {
  const shape = SHAPES[language];
  const noun = NOUNS[index % NOUNS.length] as string;
  const name = `${noun}${index}`;
  let text = shape.header(name);
  let lines = text.split('\n').length - 1;
  const footerLines = shape.footer.split('\n').length - 1;
  let i = 0;
  while (lines + footerLines < target) {
    // About one block in twelve holds a planted problem.
    const pool = rand() < 1 / 12 ? shape.problems : shape.blocks;
    const block = (pool[Math.floor(rand() * pool.length)] as Block)(
      NOUNS[i % NOUNS.length] as string,
      index * 1000 + i,
    );
    text += block;
    lines += block.split('\n').length - 1;
    i += 1;
  }
  text += shape.footer;
  lines += footerLines;
  const subdir = language === 'go' ? `${shape.dir}/${name}` : shape.dir;
  const base = language === 'java' ? `${cap(name)}Service` : language === 'ruby' ? `${name}_controller` : name;
  const path = `${subdir}/${base}.${EXTENSION[language]}`;
  return {
    language,
    lines,
    file: { path, status: 'added', additions: lines, deletions: 0, patch: addedPatch(text), content: text },
  };
}

/**
 * About `totalLines` added lines, split evenly across the six languages, in files of 60 to 1,500
 * lines (most pull requests touch many small files and a few large ones).
 */
export function generateChange(totalLines: number, seed = 4242): GeneratedFile[] {
  const rand = random(seed);
  const perLanguage = Math.floor(totalLines / SPEED_LANGUAGES.length);
  const files: GeneratedFile[] = [];
  let index = 0;
  for (const language of SPEED_LANGUAGES) {
    let lines = 0;
    while (lines < perLanguage) {
      const size = Math.min(perLanguage - lines, Math.floor(60 + rand() ** 2 * 1440));
      const file = generateFile(language, index, Math.max(size, 20), rand);
      files.push(file);
      lines += file.lines;
      index += 1;
    }
  }
  return files;
}
