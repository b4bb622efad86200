/**
 * A large, deterministic change for bench/engine-speed: new files in six languages, ordinary code
 * (services, handlers, helpers, data classes) with a few planted problems, as GitHub would send
 * them (`status: added`, a patch of `+` lines, and the file's content).
 */
import type { ChangedFile } from '../../src/engine/types.js';
import { seededRandom } from '../seeded-random.js';
import { type Block, cap, NOUNS } from './block.js';
import { SHAPES } from './language-shapes.js';

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
  const rand = seededRandom(seed);
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
