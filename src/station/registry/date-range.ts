/** The registry's date_from / date_to query values, as a half-open generated_at range. */
import { Errors } from '../../errors.js';
import type { GeneratedRange } from './registry.repository.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A date alone is a whole UTC day; a date-time without an offset is UTC. */
function parse(value: string, name: string): { at: Date; dateOnly: boolean } {
  const dateOnly = DATE_ONLY.test(value);
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value.slice(10));
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : hasZone ? value : `${value}Z`);
  if (Number.isNaN(at.getTime()) || (dateOnly && at.toISOString().slice(0, 10) !== value)) {
    throw Errors.validation(`${name} is not a valid ISO 8601 date or date-time: ${value}`);
  }
  return { at, dateOnly };
}

/** date_from is inclusive; date_to is inclusive too (a date-only date_to covers that whole day). */
export function generatedRange(query: { date_from?: string; date_to?: string }): GeneratedRange {
  const range: GeneratedRange = {};
  if (query.date_from) range.from = parse(query.date_from, 'date_from').at;
  if (query.date_to) {
    const to = parse(query.date_to, 'date_to');
    range.to = new Date(to.at.getTime() + (to.dateOnly ? DAY_MS : 1));
  }
  if (range.from && range.to && range.from >= range.to) throw Errors.validation('date_from must not be after date_to');
  return range;
}
