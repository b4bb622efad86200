/**
 * A batched statement's inputs (one row per call of batchCalls) travel as one JSON parameter: an
 * array of rows, each an array of values in `columns` order. node-postgres writes a JS array
 * parameter element by element (escaping each string, formatting each Date in local time), which
 * on the hot path cost more Node CPU than the whole batch's round trip; JSON.stringify is native.
 * PostgreSQL takes the rows apart again here, each value cast to its column's type. A value must
 * not hold a NUL (U+0000), which PostgreSQL's text cannot: callers refuse it before a call joins
 * a batch, as they did when it travelled as text.
 */
export interface BatchColumn {
  name: string;
  /**
   * `text`, or `timestamptz` sent as epoch milliseconds (a number: exact, and cheaper to write
   * than toISOString; a Date left to JSON.stringify would take it off its fast path).
   */
  type: 'text' | 'timestamptz';
}

const VALUE: Record<BatchColumn['type'], (json: string) => string> = {
  text: (json) => `(${json})`,
  timestamptz: (json) => `('epoch'::timestamptz + (${json})::bigint * interval '1 millisecond')`,
};

/**
 * The `from` item of the inputs in parameter `$n`: a subquery `q` with the columns, in order,
 * and `ord`, the row's 1-based place in the batch (an int4, so it arrives as a number).
 */
export function batchInputsFrom(columns: readonly BatchColumn[], parameter = 1): string {
  const values = columns.map((column, i) => `${VALUE[column.type](`e.v->>${i}`)} as ${column.name}`);
  return `(select ${values.join(', ')}, e.ord::int as ord
    from json_array_elements($${parameter}::json) with ordinality as e(v, ord)) q`;
}

/** The JSON parameter for batchInputsFrom: a row per call, its values in the columns' order. */
export function batchInputsParameter(rows: readonly (readonly (string | number)[])[]): string {
  const text = JSON.stringify(rows);
  if (!text.includes('\\ud')) return text;
  // JSON.stringify writes a lone surrogate as an escape (\ud800), which PostgreSQL's json refuses,
  // failing every call of the batch. Sent as text it became U+FFFD (its UTF-8 encoding); so here.
  return JSON.stringify(
    rows.map((row) =>
      row.map((value) => (typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value)),
    ),
  );
}

/** A batched statement's result row: the columns, and `ord`, the input row it answers. */
export type BatchRow<T> = T & { ord: number };

/**
 * A batch's result rows placed by their `ord`, which is dropped: one slot per input, undefined
 * where no row came back.
 */
export function inInputOrder<T>(rows: readonly BatchRow<T>[], size: number): (T | undefined)[] {
  const ordered: (T | undefined)[] = new Array(size).fill(undefined);
  for (const { ord, ...row } of rows) ordered[ord - 1] = row as T;
  return ordered;
}
