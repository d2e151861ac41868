import { describe, expect, it } from 'vitest';
import { TextMemo } from '../../src/util/text-memo.js';

function counted(budget?: number): { memo: TextMemo<string>; calls: string[] } {
  const calls: string[] = [];
  const memo = new TextMemo((text) => {
    calls.push(text);
    return text.toUpperCase();
  }, budget);
  return { memo, calls };
}

describe('TextMemo', () => {
  it('works each distinct text out once and answers the same', () => {
    const { memo, calls } = counted();
    expect([memo.get('a'), memo.get('b'), memo.get('a'), memo.get('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(calls).toEqual(['a', 'b']);
  });

  it('starts afresh past its budget of characters, so memory stays bounded', () => {
    const { memo, calls } = counted(64);
    memo.get('x'.repeat(4));
    for (let i = 0; i < 16; i++) memo.get(String(i).padStart(4, '0'));
    memo.get('x'.repeat(4));
    expect(calls.filter((text) => text === 'xxxx')).toHaveLength(2);
  });

  it('does not keep a text longer than a sixteenth of its budget', () => {
    const { memo, calls } = counted(64);
    memo.get('y'.repeat(5));
    memo.get('y'.repeat(5));
    expect(calls).toHaveLength(2);
  });
});
