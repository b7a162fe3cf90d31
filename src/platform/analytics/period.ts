/**
 * The period a report covers, from the `from`, `to` and `granularity` query parameters. All in UTC.
 *
 * - `from` is inclusive: a date (2026-03-01) means its 00:00 UTC, a date-time (with Z or an offset) that instant.
 * - `to` is exclusive as an instant, but a date means the whole of that day (to its end), so from=to=2026-03-01
 *   is that one day. Defaults: `to` now, `from` 30 days before `to`.
 * - `to` before `from` (a date `to` whose whole day is), a range longer than MAX_RANGE_DAYS, or more than MAX_BUCKETS buckets (hours over more
 *   than 31 days) answer 400: every report is one bounded query.
 * - Buckets are date_trunc's: hour, day, week (ISO, from Monday), month. The first bucket starts at or before
 *   `from`, but counts only what happened inside the period.
 */
import { Errors } from '../../errors.js';

export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;
export const MAX_BUCKETS = 744;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const BUCKET_MS: Record<Granularity, number> = { hour: 3_600_000, day: DAY_MS, week: 7 * DAY_MS, month: 28 * DAY_MS };

export interface Period {
  from: Date;
  to: Date;
  granularity: Granularity;
}

export interface PeriodQuery {
  from?: string;
  to?: string;
  granularity?: Granularity;
}

/** A calendar date that exists (2026-02-30 does not), as 00:00 UTC. */
function utcDate(year: string, month: string, day: string): number | null {
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day));
  const back = new Date(ms);
  const exists = back.getUTCFullYear() === Number(year) && back.getUTCMonth() === Number(month) - 1 && back.getUTCDate() === Number(day);
  return exists ? ms : null;
}

/** Milliseconds of a date or date-time, and whether it was a bare date; null when it is neither or does not exist. */
function parseInstant(value: string): { ms: number; dateOnly: boolean } | null {
  const date = DATE.exec(value);
  if (date) {
    const ms = utcDate(date[1], date[2], date[3]);
    return ms === null ? null : { ms, dateOnly: true };
  }
  const time = DATE_TIME.exec(value);
  if (!time || utcDate(time[1], time[2], time[3]) === null) return null;
  if (Number(time[4]) > 23 || Number(time[5]) > 59 || Number(time[6] ?? 0) > 59) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? { ms, dateOnly: false } : null;
}

function instant(name: 'from' | 'to', value: string): { ms: number; dateOnly: boolean } {
  const parsed = parseInstant(value);
  if (!parsed) throw Errors.validation(`${name} must be a date (2026-03-01) or a date-time with a zone (2026-03-01T12:00:00Z)`, `Invalid ${name}`);
  return parsed;
}

export function periodOf(query: PeriodQuery, now: Date, defaultGranularity: Granularity = 'day'): Period {
  const granularity = query.granularity ?? defaultGranularity;
  let toMs = now.getTime();
  let toIsDate = false;
  if (query.to !== undefined) {
    const to = instant('to', query.to);
    toIsDate = to.dateOnly;
    toMs = to.dateOnly ? to.ms + DAY_MS : to.ms;
  }
  const fromMs = query.from !== undefined ? instant('from', query.from).ms : toMs - DEFAULT_RANGE_DAYS * DAY_MS;
  // A date `to` is before `from` when its whole day is; a date-time `to` equal to `from` is an empty period.
  if (toIsDate ? toMs <= fromMs : toMs < fromMs) throw Errors.validation('to must not be before from', 'Invalid period');
  if (toMs - fromMs > MAX_RANGE_DAYS * DAY_MS) throw Errors.validation(`a period spans at most ${MAX_RANGE_DAYS} days`, 'Period too long');
  if (Math.ceil((toMs - fromMs) / BUCKET_MS[granularity]) > MAX_BUCKETS) {
    throw Errors.validation(`at most ${MAX_BUCKETS} ${granularity} buckets: choose a coarser granularity or a shorter period`, 'Too many buckets');
  }
  return { from: new Date(fromMs), to: new Date(toMs), granularity };
}

/** date_trunc(granularity, instant) in UTC, as the database computes it (weeks start on Monday). */
export function truncate(ms: number, granularity: Granularity): number {
  const d = new Date(ms);
  switch (granularity) {
    case 'hour':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'week':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

function next(ms: number, granularity: Granularity): number {
  const d = new Date(ms);
  if (granularity === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return ms + BUCKET_MS[granularity];
}

/** The start of every bucket that overlaps the period, as the ISO strings the queries key their rows by. */
export function bucketsOf(period: Period): string[] {
  const buckets: string[] = [];
  const end = period.to.getTime();
  for (let ms = truncate(period.from.getTime(), period.granularity); ms < end; ms = next(ms, period.granularity)) {
    buckets.push(bucketKey(ms));
  }
  return buckets;
}

/** An instant as the buckets are keyed: ISO 8601 UTC to the second (to_char's 'YYYY-MM-DD"T"HH24:MI:SS"Z"'). */
export function bucketKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}
