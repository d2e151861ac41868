import { createHash } from 'node:crypto';
import type { Shard } from '../model/fleet-report.js';

/** The most shards a fleet is split into: `batch --shard i/n` and merge-reports both hold to it. */
export const MAX_SHARDS = 1000;

/**
 * The shard (1-based) a provider belongs to among `total`. It depends only on the slug and the total, so a
 * provider stays in its shard when others are added or removed, and every shard computes the same split.
 */
export function shardOf(slug: string, total: number): number {
  const digest = createHash('sha256').update(slug, 'utf8').digest();
  return (digest.readUInt32BE(0) % total) + 1;
}

/** The entries whose slug lands in this shard, in their original order. */
export function selectShard<T extends { slug: string }>(entries: readonly T[], shard: Shard): T[] {
  return entries.filter((e) => shardOf(e.slug, shard.total) === shard.index);
}
