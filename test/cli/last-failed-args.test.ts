import { describe, expect, it } from 'vitest';
import { lastFailedArgs } from '../../src/cli/commands/run.js';

describe('the recap rerun command', () => {
  it.each([
    [
      ['run', '--base-url', 'http://x', '--local'],
      ['run', '--base-url', 'http://x', '--local', '--last-failed'],
    ],
    [
      ['run', '--last-failed'],
      ['run', '--last-failed'],
    ],
    [
      ['run', '--only', 'catalog'],
      ['run', '--only', 'catalog'],
    ],
    [
      ['run', '--only=catalog'],
      ['run', '--only=catalog'],
    ],
  ])('%j reruns as %j', (argv, expected) => {
    expect(lastFailedArgs(argv)).toEqual(expected);
  });
});
