/**
 * A rule regex rewritten for a source text that is pure ASCII, with the same matches on it.
 *
 * Why: ast-grep compiles every regex of a rule on every search, and Rust's Unicode classes are
 * expensive to compile (`\w` alone is hundreds of ranges: about 0.5 ms, against 0.03 ms for
 * `[0-9A-Za-z_]`; `.` and `[^...]` stand for about a million code points). A node's text is a
 * slice of the source, so on an ASCII source a class only ever meets ASCII characters, where:
 * - Unicode `\w`, `\d` and `\s` (Alphabetic/Mark/Nd/Pc/Join_Control, Nd, White_Space) are exactly
 *   `[0-9A-Za-z_]`, `[0-9]` and `[\t\n\v\f\r ]`, and `\W`, `\D`, `\S` their complements in ASCII
 *   (inside a class too: there, an ASCII character is in `\S` exactly when it is in its ASCII part);
 * - `.` (without the `s` flag) is any character but `\n`;
 * - a negated class `[^...]` is the same class intersected with ASCII (`[\x00-\x7F&&[^...]]`).
 * Case-insensitive folding may add non-ASCII characters to a class (K and ſ), which an ASCII
 * text never contains.
 *
 * The rest is copied as written. Characters are written as escapes so that a `(?x)` flag (which
 * ignores white space) cannot change them. A regex with a flag other than `i` (`s` and `R` change
 * what `.` means, `x` what a space means) is returned unchanged, as is one that ends in a lone `\`.
 */
const INSIDE: Record<string, string> = {
  w: '0-9A-Za-z_',
  d: '0-9',
  s: '\\t\\n\\x0B\\x0C\\r\\x20',
  // The complements, as ASCII ranges: a negated class would stand for all of Unicode again.
  W: '\\x00-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F',
  D: '\\x00-\\x2F\\x3A-\\x7F',
  S: '\\x00-\\x08\\x0E-\\x1F\\x21-\\x7F',
};
const OUTSIDE: Record<string, string> = Object.fromEntries(
  Object.entries(INSIDE).map(([letter, ranges]) => [letter, `[${ranges}]`]),
);
const ANY_BUT_NEWLINE = '[\\x00-\\x09\\x0B-\\x7F]';

/** A `(?` that is not a non-capturing group, a group name or the `i` flag. */
const OTHER_FLAG = /\(\?(?![:<]|P<|i\)|i:)/;

/** The index of the `]` that closes the class opening at `start`, or -1. */
function classEnd(regex: string, start: number): number {
  let i = start + 1;
  if (regex[i] === '^') i += 1;
  // A `]` right after `[` or `[^` is a literal, not the end of the class.
  if (regex[i] === ']') i += 1;
  for (; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i += 1;
    else if (c === '[') {
      // Rust regex nests classes (`[a[^b]]`, `[[:alpha:]]`).
      const inner = classEnd(regex, i);
      if (inner < 0) return -1;
      i = inner;
    } else if (c === ']') return i;
  }
  return -1;
}

/** The class text with the six escapes written as ASCII ranges. */
function rewriteClass(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1] as string;
      out += INSIDE[next] ?? `\\${next}`;
      i += 1;
    } else out += c;
  }
  return out;
}

export function asciiRegex(regex: string): string {
  if (OTHER_FLAG.test(regex)) return regex;
  let out = '';
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i] as string;
    if (c === '\\') {
      const next = regex[i + 1];
      if (next === undefined) return regex;
      out += OUTSIDE[next] ?? `\\${next}`;
      i += 1;
    } else if (c === '[') {
      const end = classEnd(regex, i);
      if (end < 0) return regex;
      const text = rewriteClass(regex.slice(i, end + 1));
      out += regex[i + 1] === '^' ? `[\\x00-\\x7F&&${text}]` : text;
      i = end;
    } else if (c === '.') out += ANY_BUT_NEWLINE;
    else out += c;
  }
  return out;
}

/** A character outside ASCII: a source holding one keeps its regexes' Unicode classes. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Whether the source is pure ASCII, so that the library with ASCII classes may search it. */
export const isAscii = (source: string): boolean => !NON_ASCII.test(source);
