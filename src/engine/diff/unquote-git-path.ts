const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Git C-quotes a path holding `"`, `\`, control characters or (with the default core.quotePath)
 * any non-ASCII byte, written as octal escapes of its UTF-8 bytes: `"caf\303\251.txt"`. Reads
 * one quoted path at the start of `text`; returns it and the text after the closing quote, or
 * undefined when `text` does not start with a well-formed quoted path.
 */
export function unquoteGitPath(text: string): { value: string; rest: string } | undefined {
  if (text[0] !== '"') return undefined;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  let i = 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') {
      return { value: new TextDecoder().decode(new Uint8Array(bytes)), rest: text.slice(i + 1) };
    }
    if (ch !== '\\') {
      // Unescaped text is already characters (a path quoted for a `"` may still hold raw UTF-8).
      const code = text.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(code);
      for (const b of encoder.encode(char)) bytes.push(b);
      i += char.length;
      continue;
    }
    const next = text[i + 1] ?? '';
    const escaped = ESCAPES[next];
    if (escaped !== undefined) {
      bytes.push(escaped);
      i += 2;
    } else if (/^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 4), 8) & 0xff);
      i += 4;
    } else {
      return undefined;
    }
  }
  return undefined;
}
