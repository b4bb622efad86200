const MAX_LENGTH = 2000;

/** The `last_error` text kept on a job: enough to inspect a failure, bounded so a huge message cannot bloat the row. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
