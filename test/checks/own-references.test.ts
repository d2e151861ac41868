import { describe, expect, it } from 'vitest';
import { Findings } from '../../src/checks/outcome.js';
import { judgeOwnReferences } from '../../src/checks/support/own-references.js';

const judged = (actions: { id: string; publicId?: string; answer?: unknown }[]) => {
  const f = new Findings();
  judgeOwnReferences(f, actions);
  return (f.outcome('ok').findings ?? []).map((x) => [x.severity, x.requirement, x.message]);
};

describe('judgeOwnReferences: distinct actions have their own references', () => {
  it('fails a shared publicId (a public reference names one order)', () => {
    expect(
      judged([
        { id: 'a1', answer: { publicId: 'DK-1' } },
        { id: 'a2', answer: { publicId: 'DK-1' } },
      ]),
    ).toEqual([
      [
        'fail',
        'ACTION-STATUS-SAME-IDENTITY',
        '2 distinct test actions (a1, a2) share publicId "DK-1"; a public reference names one order (events and lookups by publicId cannot tell them apart)',
      ],
    ]);
  });

  it('warns, never fails, on a shared externalActionId (the contract leaves one provider order per action open)', () => {
    expect(
      judged([
        { id: 'a1', answer: { publicId: 'DK-1', externalActionId: 'order-7' } },
        { id: 'a2', answer: { publicId: 'DK-2', externalActionId: 'order-7' } },
      ]).map(([severity, requirement]) => [severity, requirement]),
    ).toEqual([['warn', 'ACTION-STATUS-SAME-IDENTITY']]);
  });

  it('says nothing when every action has its own references', () => {
    expect(
      judged([
        { id: 'a1', answer: { publicId: 'DK-1', externalActionId: 'o1' } },
        { id: 'a2', answer: { publicId: 'DK-2', externalActionId: 'o2' } },
      ]),
    ).toEqual([]);
  });
});
