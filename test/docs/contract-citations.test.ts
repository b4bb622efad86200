import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The contract lives in the repository (docs/contract/README.md): "spec N.N" in code means
 * docs/contract/service-api.md section N.N, "decisions §N" means docs/contract/decisions.md §N.
 * Every such citation in src/ must name a section that exists, and no path in src/, docs/ or
 * the README may lead outside the repository (where the contract used to live).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type Kind = 'spec' | 'decisions';

interface Citation {
  kind: Kind;
  section: string;
  /** 1-based line of the citation's start in the text it was found in. */
  line: number;
}

const NUMBER = String.raw`\d+(?:\.\d+)*`;
// "decisions §6", "Decisions §1/§2", "decisions §1, §5", "decisions §2 and §9", "decisions\n * §7".
const DECISIONS = new RegExp(String.raw`\bdecisions[\s*/]*(§${NUMBER}(?:\s*(?:/|,|and|or)\s*§${NUMBER})*)`, 'gi');
// "spec 8.4", "Spec 2.1/2.2/2.3", "spec 2.1-2.5", "spec 8.1's", "spec 2, 4.2, 8.2". After the first
// number a list item needs its dot, so "spec 6.4, 30 s" does not read 30 as a section.
const SPEC = new RegExp(String.raw`\bspec[\s*/]+(${NUMBER}(?:\s*(?:/|-|,|and)\s*\d+\.\d+(?!\d))*)`, 'gi');

/** Every contract citation in a text (a source file, comments and all). */
function extractCitations(text: string): Citation[] {
  const found: Citation[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(DECISIONS)) {
    for (const n of (match[1] ?? '').matchAll(new RegExp(`§(${NUMBER})`, 'g'))) {
      found.push({ kind: 'decisions', section: n[1] ?? '', line: lineAt(match.index) });
    }
  }
  for (const match of text.matchAll(SPEC)) {
    for (const n of (match[1] ?? '').matchAll(new RegExp(NUMBER, 'g'))) {
      found.push({ kind: 'spec', section: n[0], line: lineAt(match.index) });
    }
  }
  return found;
}

/** The numbers of a contract file's headings: "## 4. Endpoints" gives 4, "### 4.2 Reviews" 4.2. */
function headingNumbers(markdown: string): Set<string> {
  const numbers = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,4}\s+§?(\d+(?:\.\d+)*)\.?\s/gm)) numbers.add(match[1] ?? '');
  return numbers;
}

/** Citations whose section is not a heading of its contract file. */
function missingSections<C extends Citation>(citations: C[], sections: Record<Kind, Set<string>>): C[] {
  return citations.filter((c) => !sections[c.kind].has(c.section));
}

/**
 * Mentions of the folder the contract came from, beside the repository ("../shared/…",
 * "shared/spec"): a clone does not have it. No folder of the repository is called shared, so any
 * such path leaves the repository (the same check as `grep -rn '\.\./shared' README.md docs src`).
 */
function pathsToOutsideShared(text: string): string[] {
  return [...text.matchAll(/(?:\.\.\/)+shared\b|shared\/spec\b/g)].map((match) => match[0]);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const contract: Record<Kind, Set<string>> = {
  spec: headingNumbers(readFileSync(join(ROOT, 'docs/contract/service-api.md'), 'utf8')),
  decisions: headingNumbers(readFileSync(join(ROOT, 'docs/contract/decisions.md'), 'utf8')),
};

const sourceFiles = filesUnder(join(ROOT, 'src')).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

describe('the citation extractor', () => {
  it('finds both kinds, lists, ranges and citations broken over comment lines', () => {
    const text = [
      '/** Spec 8.2 and decisions §6: a quota. */',
      '// Decisions §1/§2, spec 2.1/2.2/2.3 and spec 2.1-2.5.',
      ' * the defaults are used whole (decisions',
      " * §7): and spec 8.1's headers (decisions §1, §18; decisions §2 and §9).",
    ].join('\n');
    const cited = extractCitations(text).map((c) => `${c.kind} ${c.section}@${c.line}`);
    expect(cited.sort()).toEqual(
      [
        'decisions 6@1',
        'decisions 1@2',
        'decisions 2@2',
        'decisions 7@3',
        'decisions 1@4',
        'decisions 18@4',
        'decisions 2@4',
        'decisions 9@4',
        'spec 8.2@1',
        'spec 2.1@2',
        'spec 2.2@2',
        'spec 2.3@2',
        'spec 2.1@2',
        'spec 2.5@2',
        'spec 8.1@4',
      ].sort(),
    );
  });

  it('does not read ordinary numbers after a citation as sections', () => {
    expect(extractCitations('(spec 6.4, 30 s) and the specs 3 and inspect 4.2').map((c) => c.section)).toEqual(['6.4']);
  });

  it('reports a made-up section as missing', () => {
    const cited = extractCitations('/** Decisions §99 and spec 42.7; decisions §5 and spec 8.4 exist. */');
    expect(missingSections(cited, contract)).toEqual([
      { kind: 'decisions', section: '99', line: 1 },
      { kind: 'spec', section: '42.7', line: 1 },
    ]);
  });

  it('tells paths inside the repository from paths leaving it', () => {
    expect(pathsToOutsideShared("import '../common/errors.js';")).toEqual([]);
    expect(pathsToOutsideShared('[spec](../shared/spec/service-api.md)')).toEqual(['../shared']);
    expect(pathsToOutsideShared('see ../../shared/decisions.md or shared/spec')).toEqual([
      '../../shared',
      'shared/spec',
    ]);
  });
});

describe('the contract files', () => {
  it('number their sections as the code cites them', () => {
    for (const section of ['2.1', '2.9', '3.1', '4.2', '6.4', '7.1', '7.3', '8.4', '9']) {
      expect(contract.spec.has(section), `spec ${section}`).toBe(true);
    }
    for (let n = 1; n <= 25; n++) expect(contract.decisions.has(String(n)), `decisions §${n}`).toBe(true);
  });
});

describe('citations in src/', () => {
  const citations = sourceFiles.flatMap((file) =>
    extractCitations(file.text).map((c) => ({ ...c, where: `${file.path}:${c.line}` })),
  );

  it('are many, of both kinds (the scan reads what it should)', () => {
    expect(citations.filter((c) => c.kind === 'decisions').length).toBeGreaterThan(60);
    expect(citations.filter((c) => c.kind === 'spec').length).toBeGreaterThan(30);
  });

  it('each name a section of docs/contract/', () => {
    const missing = missingSections(citations, contract).map(
      (c) => `${c.where}: ${c.kind === 'spec' ? 'spec ' : 'decisions §'}${c.section}`,
    );
    expect(missing).toEqual([]);
  });

  it('never name a contract file other than docs/contract/', () => {
    const stale = sourceFiles
      .filter((file) => /decisions\.md|service-api\.md/.test(file.text.replace(/docs\/contract\/\S+/g, '')))
      .map((file) => file.path);
    expect(stale).toEqual([]);
  });
});

describe('no path leads outside the repository', () => {
  const scanned = [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'docs'))];

  it('from src/ or docs/', () => {
    const leaving = scanned.flatMap((path) =>
      pathsToOutsideShared(readFileSync(path, 'utf8')).map((p) => `${relative(ROOT, path)}: ${p}`),
    );
    expect(scanned.length).toBeGreaterThan(100);
    expect(leaving).toEqual([]);
  });

  it('from README.md', () => {
    const readme = join(ROOT, 'README.md');
    expect(pathsToOutsideShared(readFileSync(readme, 'utf8'))).toEqual([]);
  });
});
