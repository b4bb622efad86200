// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated sources hold their own template literals
import { type Block, cap } from './block.js';

/** TypeScript (services): ordinary blocks, then blocks with a planted problem. */
export const TS_BLOCKS: Block[] = [
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

export const TS_PROBLEMS: Block[] = [
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
