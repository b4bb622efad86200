/** The languages the engine analyzes; ast-grep's names (the dynamic ones are registered at load). */
export type Language = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'java' | 'ruby';

const BY_EXTENSION: Record<string, Language> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  go: 'go',
  java: 'java',
  rb: 'ruby',
};

/** The language of a path by its extension; undefined for files no rule pack reads. */
export function languageOf(path: string): Language | undefined {
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return match ? BY_EXTENSION[match[1]?.toLowerCase() ?? ''] : undefined;
}

/** Rule packs name language families: a `typescript` rule also runs on `.tsx`, a `javascript` one on both. */
export function ruleLanguagesFor(language: Language): string[] {
  switch (language) {
    case 'javascript':
      return ['javascript'];
    case 'typescript':
    case 'tsx':
      return ['typescript', 'javascript'];
    default:
      return [language];
  }
}
