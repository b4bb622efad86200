/**
 * The hidden mark that says which finding a comment of ours is about, so a later review (the
 * App's on `synchronize`, the action's on the next push) does not post it again (decisions §7).
 * An HTML comment: GitHub does not render it.
 */
export function fingerprintMarker(fingerprint: string): string {
  return `<!-- redline:fingerprint=${fingerprint} -->`;
}

/**
 * What a fingerprint may look like inside a marker: the engine's are 16 hex digits, but any text
 * without spaces or angle brackets (which could end the comment early) reads back.
 */
const FINGERPRINT_PATTERN = '[^\\s<>]{1,256}';

/** An inline comment of ours ends with its one marker (a marker elsewhere is quoted text, not ours). */
const COMMENT_MARKER = new RegExp(`<!-- redline:fingerprint=(${FINGERPRINT_PATTERN}) -->\\s*$`);
/** A review body lists findings one a line, each ending with its marker. */
const BODY_MARKERS = new RegExp(`<!-- redline:fingerprint=(${FINGERPRINT_PATTERN}) -->$`, 'gm');

/** The fingerprint an inline review comment of ours carries, or undefined. */
export function inlineCommentFingerprint(body: string): string | undefined {
  return COMMENT_MARKER.exec(body)?.[1];
}

/** The fingerprints a review body of ours lists. */
export function reviewBodyFingerprints(body: string): string[] {
  return [...body.matchAll(BODY_MARKERS)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}
