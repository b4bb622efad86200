/**
 * The hidden mark that says which finding a comment of ours is about, so a re-review on
 * `synchronize` does not post it again (decisions §7). An HTML comment: GitHub does not render it.
 */
export function fingerprintMarker(fingerprint: string): string {
  return `<!-- redline:fingerprint=${fingerprint} -->`;
}

/**
 * What a fingerprint may look like inside a marker: the engine's are 16 hex digits, but any text
 * without spaces or angle brackets (which could end the comment early) reads back.
 */
export const FINGERPRINT_PATTERN = '[^\\s<>]{1,256}';
