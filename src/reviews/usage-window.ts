const DAY_MS = 24 * 60 * 60 * 1000;

export interface UsageWindow {
  /** 00:00 UTC of the first day. */
  from: Date;
  /** Now: the window ends at the answer's moment, so today is a partial day. */
  until: Date;
  /** Every day of the window as YYYY-MM-DD (UTC), oldest first. */
  dates: string[];
}

/** The last `days` UTC days, today included. */
export function usageWindow(now: Date, days: number): UsageWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from, until: now, dates };
}
