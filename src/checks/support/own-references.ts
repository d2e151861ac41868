import type { Findings } from '../outcome.js';
import { sharedReferences } from './probe-tables/identity.js';

/**
 * Each distinct action certification created has its own references. A publicId is "string (public reference)"
 * and events may name the order by it (DECISIONS.md, Webhooks: "actionId in an event may carry the action's id or
 * publicId"): one shared by two orders names neither, so it fails. externalActionId is optional, "the provider's own
 * order id": the contract does not say one provider order cannot carry two actions, so a shared one is a warning.
 */
export function judgeOwnReferences(
  f: Findings,
  actions: readonly { id: string; publicId?: string; answer?: unknown }[],
): void {
  for (const s of sharedReferences(actions)) {
    const text = `${s.ids.length} distinct test actions (${s.ids.join(', ')}) share ${s.field} ${JSON.stringify(s.value)}`;
    if (s.field === 'publicId')
      f.problem(
        `${text}; a public reference names one order (events and lookups by publicId cannot tell them apart)`,
        'ACTION-STATUS-SAME-IDENTITY',
      );
    else
      f.warn(
        `${text}; the provider's own order id usually names one order (the contract does not say one order cannot carry two actions)`,
        'ACTION-STATUS-SAME-IDENTITY',
      );
  }
}
