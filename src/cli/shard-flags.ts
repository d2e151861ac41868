import { UsageError } from '../model/errors.js';
import type { Shard } from '../model/fleet-report.js';

/** The most shards a fleet is split into. */
export const MAX_SHARDS = 1000;

function wholeNumber(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

function checkTotal(total: number | undefined, what: string, shown: string): number {
  if (total === undefined || total < 1 || total > MAX_SHARDS)
    throw new UsageError(`${what} must be a whole number from 1 to ${MAX_SHARDS} (got "${shown}")`);
  return total;
}

/** `--shard i/n`: 1 ≤ i ≤ n. */
export function parseShardFlag(value: string): Shard {
  const [indexText, totalText, ...extra] = value.split('/');
  if (indexText === undefined || totalText === undefined || extra.length > 0)
    throw new UsageError(`--shard must be written i/n, e.g. 2/4 (got "${value}")`);
  const total = checkTotal(wholeNumber(totalText), 'the n of --shard i/n', totalText);
  const index = wholeNumber(indexText);
  if (index === undefined || index < 1 || index > total)
    throw new UsageError(`--shard ${value}: i must be a whole number from 1 to ${total} (shards count from 1)`);
  return { index, total };
}

/**
 * `--shard-index-env NAME --shard-total N`: the index is read from the environment and counts from 0, as
 * Kubernetes Indexed Jobs set JOB_COMPLETION_INDEX (0 … n-1). GitLab's CI_NODE_INDEX counts from 1: use --shard.
 */
export function shardFromEnv(env: NodeJS.ProcessEnv, name: string, totalText: string | undefined): Shard {
  if (totalText === undefined)
    throw new UsageError(`--shard-index-env ${name} needs --shard-total N (how many shards there are)`);
  const total = checkTotal(wholeNumber(totalText), '--shard-total', totalText);
  const raw = env[name];
  if (raw === undefined || raw.trim() === '')
    throw new UsageError(
      `--shard-index-env: the environment variable ${name} is not set`,
      `it must hold this shard's index from 0 to ${total - 1} (Kubernetes Indexed Jobs set JOB_COMPLETION_INDEX)`,
    );
  const zeroBased = wholeNumber(raw);
  if (zeroBased === undefined || zeroBased >= total)
    throw new UsageError(
      `--shard-index-env: ${name} must be a whole number from 0 to ${total - 1} (got "${raw.trim()}")`,
      'the index counts from 0 here, as in Kubernetes Indexed Jobs; --shard i/n counts from 1',
    );
  return { index: zeroBased + 1, total };
}

/** The shard the flags ask for, or undefined for the whole fleet. Mixing the two ways is a usage error. */
export function shardFromFlags(
  flags: { shard?: string; shardIndexEnv?: string; shardTotal?: string },
  env: NodeJS.ProcessEnv,
): Shard | undefined {
  if (flags.shard !== undefined && (flags.shardIndexEnv !== undefined || flags.shardTotal !== undefined))
    throw new UsageError('use either --shard i/n or --shard-index-env NAME with --shard-total N, not both');
  if (flags.shard !== undefined) return parseShardFlag(flags.shard);
  if (flags.shardIndexEnv !== undefined) return shardFromEnv(env, flags.shardIndexEnv, flags.shardTotal);
  if (flags.shardTotal !== undefined)
    throw new UsageError('--shard-total needs --shard-index-env NAME (the variable holding the 0-based index)');
  return undefined;
}
