/**
 * Code written in a comment on purpose: a usage example in documentation. The commented-out-code
 * rules of every pack leave such comments alone. A block of comments (consecutive comment
 * siblings) is documentation when one of its earlier lines introduces an example (`Example:`,
 * `Usage:`, `e.g.`, YARD's `@example`, or any sentence ending with a colon), or when it sits right
 * above a declaration (Go doc comments, YARD and RDoc blocks above a `def` or a `module`) and an
 * earlier line of it is prose, or when the line is indented under an earlier line of prose (RDoc's
 * and Markdown's verbatim blocks: `#   require 'x'` below `# The server could look like this.`).
 * Dead code is written without an introduction and at the prose's indentation; a block that
 * starts with code is still reported on its first line.
 */

/** A line that introduces an example. A colon after a keyword is code (`# for x in xs:`, `// case 1:`). */
const INTRO =
  '(?i)^(#|//)\\s*(@example\\b|examples?\\b|usage\\b|e\\.g\\.|for (example|instance)\\b)|^(#|//)\\s*[^\\s].*:\\s*$';
const KEYWORD_COLON = '^(#|//)\\s*(if|elif|else|for|while|def|class|with|try|except|finally|case|default|match)\\b';
/** A verbatim line: three spaces or a tab (and more) between the comment marker and the text. */
const VERBATIM = '^(#|//)(\\s{3,}|\\t)\\S';
/** A line of prose at the block's own indentation: one space at most, then a word. */
const PROSE = '^(#|//) ?[A-Za-z]';

/**
 * The `not` part of a commented-out-code rule: the comment is documentation. `comment` is the
 * grammar's line comment kind, `code` the pack's rule for a comment holding code, `declarations`
 * the kinds a doc comment documents.
 */
export function documentationComment(
  comment: string,
  code: Record<string, unknown>,
  declarations: readonly string[],
): Record<string, unknown> {
  const inBlock = { stopBy: { not: { kind: comment } } };
  const introduced = {
    any: [
      { follows: { kind: comment, regex: INTRO, not: { regex: KEYWORD_COLON }, ...inBlock } },
      {
        regex: VERBATIM,
        follows: { kind: comment, regex: PROSE, not: { any: [code, { regex: KEYWORD_COLON }] }, ...inBlock },
      },
    ],
  };
  if (declarations.length === 0) return introduced;
  return {
    any: [
      introduced,
      {
        follows: { kind: comment, regex: '[A-Za-z]{2}', not: code, ...inBlock },
        precedes: { any: declarations.map((kind) => ({ kind })), ...inBlock },
      },
    ],
  };
}
