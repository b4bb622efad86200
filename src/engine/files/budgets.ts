/**
 * Per-file budgets. Past them a file is listed as skipped instead of analysed, so no single file
 * (a dump, a vendored bundle) can make a review exceed its time. The model's context and
 * GitHub's own limits (it omits patches past about 3,000 lines per file) are far below these.
 */
export const MAX_CHANGED_LINES = 20_000;
export const MAX_PATCH_BYTES = 1024 * 1024;

/** Minified text: one line this long, or lines this long on average, is not written by hand. */
export const MINIFIED_MAX_LINE_LENGTH = 1000;
export const MINIFIED_MAX_AVERAGE_LINE_LENGTH = 300;
/**
 * The average applies only to this much added text: a one-line change holding a long string
 * literal is a normal edit, and skipping it would hide it from the analyzers.
 */
export const MINIFIED_AVERAGE_MIN_CHARS = 2000;

/** How many first lines may carry a "generated" header marker. */
export const GENERATED_HEADER_LINES = 10;
