// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** Python (flask handlers): ordinary blocks, then blocks with a planted problem. */
export const PY_BLOCKS: Block[] = [
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

export const PY_PROBLEMS: Block[] = [
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
