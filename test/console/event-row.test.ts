import { describe, expect, it } from 'vitest';
import { eventRow } from '../../src/console/data.js';

describe("the console's webhook event row", () => {
  it.each([
    [{ verified: true, duplicate: false }, 'verified'],
    [{ verified: true, duplicate: false, verifiedWith: 'previous' }, 'verified with the previous secret'],
    [{ verified: true, duplicate: true, verifiedWith: 'previous' }, 'verified with the previous secret (duplicate)'],
    [{ verified: false, duplicate: false }, 'rejected'],
  ])('%j reads "%s"', (event, text) => {
    expect(eventRow(event).verdictText).toBe(text);
  });
});
