import { describe, expect, it } from 'vitest';
import { isIsoTimestamp, parseIsoTimestamp } from '../../src/contract/timestamp.js';

const utc = (text: string): number => Date.parse(text);

describe('parseIsoTimestamp: accepted forms', () => {
  it.each([
    // [text, instant it names (read with an explicit Z where the text has none), hasOffset]
    ['2026-11-22T13:00:00Z', '2026-11-22T13:00:00.000Z', true],
    ['2026-11-22T13:00:00', '2026-11-22T13:00:00.000Z', false],
    ['2026-11-22T13:00', '2026-11-22T13:00:00.000Z', false],
    ['2026-11-22T13Z', '2026-11-22T13:00:00.000Z', true],
    ['2026-11-22T13:00:00.250', '2026-11-22T13:00:00.250Z', false],
    ['2026-11-22T13:00:00,250Z', '2026-11-22T13:00:00.250Z', true],
    ['2026-11-22T13:00:00.123456789Z', '2026-11-22T13:00:00.123Z', true],
    ['2026-11-22T13:00:00.9999Z', '2026-11-22T13:00:00.999Z', true],
    ['2026-11-22T13:00.5Z', '2026-11-22T13:00:30.000Z', true],
    ['2026-11-22T13,25Z', '2026-11-22T13:15:00.000Z', true],
    ['2026-11-22T13:00:00+01:00', '2026-11-22T12:00:00.000Z', true],
    ['2026-11-22T13:00:00+0530', '2026-11-22T07:30:00.000Z', true],
    ['2026-11-22T13:00:00-05', '2026-11-22T18:00:00.000Z', true],
    ['2026-11-22T13:00:00-00:00', '2026-11-22T13:00:00.000Z', true],
    ['2026-11-22t13:00:00z', '2026-11-22T13:00:00.000Z', true],
    ['20261122T130000', '2026-11-22T13:00:00.000Z', false],
    ['20261122T1300Z', '2026-11-22T13:00:00.000Z', true],
    ['20261122T130000,5+0100', '2026-11-22T12:00:00.500Z', true],
    ['20261122T130000.25-03:30', '2026-11-22T16:30:00.250Z', true],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z', true],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z', true],
    ['2026-12-31T23:59:60Z', '2027-01-01T00:00:00.000Z', true],
    ['2026-06-30T23:59:60.5+02:00', '2026-06-30T22:00:00.500Z', true],
    ['2026-11-22T24:00:00Z', '2026-11-23T00:00:00.000Z', true],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z', true],
    // Ordinal and week dates are ISO 8601 (issue 24 item 19).
    ['2026-326T13:00:00Z', '2026-11-22T13:00:00.000Z', true],
    ['2026326T130000Z', '2026-11-22T13:00:00.000Z', true],
    ['2028-366T00:00:00Z', '2028-12-31T00:00:00.000Z', true],
    ['2026-001T00:00', '2026-01-01T00:00:00.000Z', false],
    ['2026-W47-7T13:00:00Z', '2026-11-22T13:00:00.000Z', true],
    ['2026W477T130000+0100', '2026-11-22T12:00:00.000Z', true],
    ['2026-W01-1T00:00:00Z', '2025-12-29T00:00:00.000Z', true],
    ['2026-W53-5T00:00:00Z', '2027-01-01T00:00:00.000Z', true],
    ['2021-W01-1T00:00:00Z', '2021-01-04T00:00:00.000Z', true],
  ])('%s', (text, instant, hasOffset) => {
    expect(parseIsoTimestamp(text)).toEqual({ epochMs: utc(instant), hasOffset });
    expect(isIsoTimestamp(text)).toBe(true);
  });

  it('reads an offsetless value as UTC, not as local time', () => {
    // Date.parse reads "2026-11-22T13:00:00" in the local zone; the contract gives no zone, so UTC it is.
    expect(parseIsoTimestamp('2026-11-22T13:00:00')?.epochMs).toBe(Date.UTC(2026, 10, 22, 13, 0, 0));
  });
});

describe('parseIsoTimestamp: rejected forms', () => {
  it.each([
    ['day first', '22/11/2026 13:00'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['month 0', '2026-00-10T00:00:00Z'],
    ['day 0', '2026-11-00T00:00:00Z'],
    ['Feb 30', '2026-02-30T00:00:00Z'],
    ['Feb 29 in a non-leap year', '2026-02-29T00:00:00Z'],
    ['Feb 29 in a century that is not a leap year', '1900-02-29T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['hour 25', '2026-11-22T25:00:00Z'],
    ['24:00 with minutes', '2026-11-22T24:30:00Z'],
    ['24:00 with a fraction', '2026-11-22T24:00:00.5Z'],
    ['minute 60', '2026-11-22T13:60:00Z'],
    ['second 61', '2026-11-22T13:00:61Z'],
    ['offset hour 24', '2026-11-22T13:00:00+24:00'],
    ['offset minute 60', '2026-11-22T13:00:00+01:60'],
    ['offset with one digit', '2026-11-22T13:00:00+1'],
    ['space separator', '2026-11-22 13:00:00Z'],
    ['date only', '2026-11-22'],
    ['time only', '13:00:00Z'],
    ['extended date, basic time', '2026-11-22T130000Z'],
    ['basic date, extended time', '20261122T13:00:00Z'],
    ['fraction without digits', '2026-11-22T13:00:00.Z'],
    ['two-digit year', '26-11-22T13:00:00Z'],
    ['one-digit month', '2026-1-22T13:00:00Z'],
    ['trailing text', '2026-11-22T13:00:00Z and then some'],
    ['leading space', ' 2026-11-22T13:00:00Z'],
    ['Date.toString()', 'Sun Nov 22 2026 13:00:00 GMT+0100 (Central European Standard Time)'],
    ['RFC 1123', 'Sun, 22 Nov 2026 13:00:00 GMT'],
    ['words', 'yesterday'],
    ['empty', ''],
    ['ordinal day 0', '2026-000T00:00:00Z'],
    ['ordinal day 366 in a common year', '2026-366T00:00:00Z'],
    ['week 53 in a 52-week year', '2025-W53-1T00:00:00Z'],
    ['week 0', '2026-W00-1T00:00:00Z'],
    ['weekday 8', '2026-W10-8T00:00:00Z'],
    ['week date without weekday', '2026-W10T00:00:00Z'],
    ['ordinal extended date, basic time', '2026-326T130000Z'],
    ['expanded year', '+002026-11-22T13:00:00Z'],
  ])('%s: %s', (_name, text) => {
    expect(parseIsoTimestamp(text)).toBeUndefined();
    expect(isIsoTimestamp(text)).toBe(false);
  });

  it.each([[1763816400000], [null], [undefined], [{}]])('a non-string (%s) is not a timestamp', (value) => {
    expect(parseIsoTimestamp(value)).toBeUndefined();
  });
});
