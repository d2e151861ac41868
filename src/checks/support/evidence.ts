import type { HttpOutcome } from '../../http/types.js';
import type { Exchange } from '../../model/exchange.js';
import type { Findings } from '../outcome.js';

/** The exchanges each Findings already keeps; one map for every check helper, so no path can keep one twice. */
const kept = new WeakMap<Findings, WeakSet<Exchange>>();

/** Keep an exchange as evidence once, however many problems it shows and whichever helper records them. */
export function keepEvidence(f: Findings, outcome: HttpOutcome): void {
  const seen = kept.get(f) ?? new WeakSet<Exchange>();
  kept.set(f, seen);
  if (seen.has(outcome.exchange)) return;
  seen.add(outcome.exchange);
  f.evidence(outcome);
}
