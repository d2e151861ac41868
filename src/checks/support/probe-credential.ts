import { createHash } from 'node:crypto';

/**
 * The wrong credential `credential-echo` sends. Derived from the run's seed, so a replay sends the same one;
 * random-looking, so any piece of it a provider repeats is recognisable; the run masks it like its own secrets
 * (open-run.ts), so a report shows where it was repeated, never the value.
 */
export function probeCredential(seed: string): string {
  const digest = createHash('sha256').update(`provcert credential-echo ${seed}`).digest('hex');
  return `provcert-probe-${digest.slice(0, 24)}`;
}
