/**
 * ISO 8601 date-times as the contract allows them ("Timestamps are ISO 8601 strings"): calendar date, `T`,
 * time of day in the extended (`2026-11-22T13:00:00`) or basic (`20261122T130000`) form, reduced precision
 * (hours, or hours and minutes), a decimal fraction of the last unit (`.` or `,`), and an optional offset
 * (`Z`, `±hh:mm`, `±hhmm`, `±hh`). Date and time use the same form; the offset may use either. Lower-case
 * `t` and `z` are accepted as RFC 3339 allows them (ajv's `date-time` accepted them before).
 * Ordinal (`2026-330T10:00:00Z`) and week (`2026-W48-4T10:00:00Z`) dates are ISO 8601 too and are accepted
 * (basic forms as well: `2026330T100000Z`, `2026W484T100000Z`). Expanded years (`+002026`) are not: they need
 * an agreement between the parties (ISO 8601 §3.5), which the contract does not make.
 */

/** The spec's format name for the contract's "ISO 8601 strings"; provcert's own output keeps RFC 3339 `date-time`. */
export const ISO_TIMESTAMP_FORMAT = 'iso8601-date-time';

export interface IsoTimestamp {
  /** Milliseconds since the epoch; a value without an offset is read as UTC. */
  readonly epochMs: number;
  /** False when the text names no offset: the instant is then ambiguous. */
  readonly hasOffset: boolean;
}

const OFFSET = '([Zz]|[+-]\\d{2}(?::?\\d{2})?)?';
const FRACTION = '(?:[.,](\\d+))?';
const EXTENDED = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})[Tt](\\d{2})(?::(\\d{2})(?::(\\d{2}))?)?${FRACTION}${OFFSET}$`);
const BASIC = new RegExp(`^(\\d{4})(\\d{2})(\\d{2})[Tt](\\d{2})(?:(\\d{2})(\\d{2})?)?${FRACTION}${OFFSET}$`);

const MS = { hour: 3_600_000, minute: 60_000, second: 1_000 } as const;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Offset east of UTC in minutes, or undefined when out of range. `-00:00` counts as an offset of 0. */
function offsetMinutes(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (text.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * Parse an ISO 8601 date-time; undefined when the text is not one (including impossible dates such as
 * month 13 or February 30). Second 60 is a leap second and `24:00` the end of the day; both roll over.
 * This is the one place provider timestamps become numbers: `Date.parse` would read an offsetless value
 * as local time and accept forms that are not ISO 8601.
 */
export function parseIsoTimestamp(text: unknown): IsoTimestamp | undefined {
  if (typeof text !== 'string') return undefined;
  // Validation checks the format and then the offset warning on the same value: parse it once.
  if (text !== last.text) last = { text, parsed: parse(text) };
  return last.parsed;
}

let last: { text: string | undefined; parsed: IsoTimestamp | undefined } = { text: undefined, parsed: undefined };

const ORDINAL = /^(\d{4})(-?)(\d{3})([Tt].*)$/;
const WEEK = /^(\d{4})(-?)W(\d{2})-?(\d)([Tt].*)$/;

const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A UTC date as `YYYY-MM-DD` (extended) or `YYYYMMDD` (basic). */
function calendar(date: Date, extended: boolean): string {
  const parts = [pad(date.getUTCFullYear(), 4), pad(date.getUTCMonth() + 1, 2), pad(date.getUTCDate(), 2)];
  return parts.join(extended ? '-' : '');
}

function dayOfYear(year: number, ordinal: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, 0, ordinal);
  return date;
}

/** ISO weeks in a year: 53 when it starts on a Thursday, or on a Wednesday in a leap year. */
function weeksIn(year: number): number {
  const jan1 = (dayOfYear(year, 1).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return jan1 === 3 || (jan1 === 2 && isLeap(year)) ? 53 : 52;
}

/**
 * An ordinal or week date rewritten as the calendar date it names (same form), so one parser reads every
 * date form; undefined for an impossible day or week, and the text itself when it is neither form.
 */
function asCalendarDate(text: string): string | undefined {
  const ordinal = ORDINAL.exec(text);
  if (ordinal) {
    const [, y = '', sep = '', d = '', rest = ''] = ordinal;
    const [year, day] = [Number(y), Number(d)];
    if (day < 1 || day > (isLeap(year) ? 366 : 365)) return undefined;
    return calendar(dayOfYear(year, day), sep === '-') + rest;
  }
  const week = WEEK.exec(text);
  if (week) {
    const [, y = '', sep = '', w = '', d = '', rest = ''] = week;
    const [year, weekNo, weekday] = [Number(y), Number(w), Number(d)];
    if (weekNo < 1 || weekNo > weeksIn(year) || weekday < 1 || weekday > 7) return undefined;
    const jan4 = (dayOfYear(year, 4).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    return calendar(dayOfYear(year, 4 - jan4 + (weekNo - 1) * 7 + (weekday - 1)), sep === '-') + rest;
  }
  return text;
}

function parse(original: string): IsoTimestamp | undefined {
  const text = asCalendarDate(original);
  if (text === undefined) return undefined;
  const m = EXTENDED.exec(text) ?? BASIC.exec(text);
  if (!m) return undefined;
  const [, y = '', mo = '', d = '', h = '', mi, s, fraction, offset] = m;
  const [year, month, day, hour] = [Number(y), Number(mo), Number(d), Number(h)];
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (minute > 59 || second > 60) return undefined;
  const fractionIsZero = fraction === undefined || /^0+$/.test(fraction);
  if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || !fractionIsZero))) return undefined;
  const offsetMin = offset === undefined ? 0 : offsetMinutes(offset);
  if (offsetMin === undefined) return undefined;

  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0–99 as written (Date.UTC would add 1900)
  date.setUTCHours(hour, minute, second, 0);
  const unit = s !== undefined ? MS.second : mi !== undefined ? MS.minute : MS.hour;
  const fractionMs = fraction === undefined ? 0 : Math.trunc(Number(`0.${fraction}`) * unit);
  return { epochMs: date.getTime() + fractionMs - offsetMin * MS.minute, hasOffset: offset !== undefined };
}

/** True for any ISO 8601 date-time parseIsoTimestamp accepts (the spec's `iso8601-date-time` format). */
export const isIsoTimestamp = (text: unknown): boolean => parseIsoTimestamp(text) !== undefined;
