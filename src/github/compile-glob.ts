type Token =
  | { kind: 'char'; char: string }
  /** `?`: one character other than `/`. */
  | { kind: 'one' }
  /** `*`: any run of characters other than `/`. */
  | { kind: 'star' }
  /** `**` inside a segment, or as the last one: any run of characters. */
  | { kind: 'any' }
  /** `**\/` as whole segments: nothing, or any run of characters ending with `/`. */
  | { kind: 'dirs' };

function tokenize(pattern: string): Token[] {
  let text = pattern.replace(/^\.?\//, '');
  if (text.endsWith('/')) text += '**';
  // By code point, as the path is walked: a character outside the BMP is one character.
  const glob = Array.from(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < glob.length) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      const wholeSegments = (i === 0 || glob[i - 1] === '/') && glob[i + 2] === '/';
      tokens.push({ kind: wholeSegments ? 'dirs' : 'any' });
      i += wholeSegments ? 3 : 2;
    } else {
      tokens.push(char === '*' ? { kind: 'star' } : char === '?' ? { kind: 'one' } : { kind: 'char', char });
      i += 1;
    }
  }
  return tokens;
}

/**
 * A path pattern of `.github/redline.yml` as a test over a whole repository path, with the syntax
 * of GitHub Actions' `paths` filters (what people already write under `.github/`): `*` is any run
 * of characters except `/`, `?` one character except `/`, `**` any run including `/` (as whole
 * segments, `**\/` also matches no directory at all: `**\/*.md` matches `README.md`). A pattern is
 * anchored at the repository root (`*.md` is the root's markdown files only), a leading `/` or
 * `./` is ignored and a trailing `/` means everything below. Every other character is literal.
 *
 * Matched by walking the pattern's states along the path (time proportional to pattern × path),
 * not by a RegExp: a backtracking regular expression made from a pattern such as `**a**a**a**b`
 * takes minutes on a long path, and patterns come from any repository. (Node's `path.matchesGlob`
 * is experimental on Node 20.)
 */
export function compileGlob(pattern: string): (path: string) => boolean {
  const tokens = tokenize(pattern);
  const end = tokens.length;
  // States 0..end: the next token to match. end + 1 + k: inside `dirs` token k, last character not `/`.
  const inside = (k: number) => end + 1 + k;

  const close = (states: Set<number>): Set<number> => {
    for (const s of states) {
      const kind = s < end ? tokens[s]?.kind : undefined;
      // Sets iterate over what is added during the loop, so chains of empty matches close fully.
      if (kind === 'star' || kind === 'any' || kind === 'dirs') states.add(s + 1);
    }
    return states;
  };

  return (path) => {
    let states = close(new Set([0]));
    for (const char of path) {
      const next = new Set<number>();
      for (const s of states) {
        if (s > end) {
          next.add(char === '/' ? s - end - 1 : s);
          continue;
        }
        const token = tokens[s];
        if (token === undefined) continue;
        if (token.kind === 'char') {
          if (token.char === char) next.add(s + 1);
        } else if (token.kind === 'one') {
          if (char !== '/') next.add(s + 1);
        } else if (token.kind === 'star') {
          if (char !== '/') next.add(s);
        } else if (token.kind === 'any') {
          next.add(s);
        } else {
          next.add(char === '/' ? s : inside(s));
        }
      }
      if (next.size === 0) return false;
      states = close(next);
    }
    return states.has(end);
  };
}
