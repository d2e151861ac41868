import { describe, expect, it } from 'vitest';
import { sharedReferences } from '../../../../src/checks/support/probe-tables/identity.js';

describe('sharedReferences: references two distinct actions carry', () => {
  it('finds a publicId and an externalActionId shared by distinct actions, each once', () => {
    const actions = [
      { id: 'a1', publicId: 'DK-1', answer: { id: 'a1', publicId: 'DK-1', externalActionId: 'ext-1' } },
      { id: 'a2', publicId: 'DK-1', answer: { id: 'a2', publicId: 'DK-1', externalActionId: 'ext-1' } },
      { id: 'a3', publicId: 'DK-3', answer: { id: 'a3', publicId: 'DK-3', externalActionId: 'ext-1' } },
    ];
    expect(sharedReferences(actions)).toEqual([
      { field: 'publicId', value: 'DK-1', ids: ['a1', 'a2'] },
      { field: 'externalActionId', value: 'ext-1', ids: ['a1', 'a2', 'a3'] },
    ]);
  });

  it('finds nothing when each action has its own references, or the same action is listed twice', () => {
    const one = { id: 'a1', publicId: 'DK-1', answer: { publicId: 'DK-1', externalActionId: 'e1' } };
    const two = { id: 'a2', publicId: 'DK-2', answer: { publicId: 'DK-2', externalActionId: 'e2' } };
    expect(sharedReferences([one, two, one])).toEqual([]);
  });

  it('reads a noted publicId when the answer was not kept, never the id standing in for it', () => {
    expect(
      sharedReferences([
        { id: 'a1', publicId: 'DK-9' },
        { id: 'a2', publicId: 'DK-9' },
        { id: 'a3', publicId: 'a3' },
        { id: 'a4', publicId: 'a4' },
      ]),
    ).toEqual([{ field: 'publicId', value: 'DK-9', ids: ['a1', 'a2'] }]);
  });

  it('counts an empty reference two orders carry as shared: it names neither', () => {
    expect(
      sharedReferences([
        { id: 'a1', publicId: '', answer: { publicId: '', externalActionId: '' } },
        { id: 'a2', publicId: '', answer: { publicId: '', externalActionId: '' } },
      ]),
    ).toEqual([
      { field: 'publicId', value: '', ids: ['a1', 'a2'] },
      { field: 'externalActionId', value: '', ids: ['a1', 'a2'] },
    ]);
  });
});
