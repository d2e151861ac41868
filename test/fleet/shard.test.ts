import { describe, expect, it } from 'vitest';
import { parseShardFlag, shardFromEnv, shardFromFlags } from '../../src/cli/shard-flags.js';
import { selectShard, shardOf } from '../../src/fleet/shard.js';
import { UsageError } from '../../src/model/errors.js';

const slugs = Array.from({ length: 200 }, (_, i) => `provider-${i}`);

describe('shards', () => {
  it('puts every provider in exactly one shard, for every shard count', () => {
    for (const total of [1, 2, 3, 4, 7, 16]) {
      const entries = slugs.map((slug) => ({ slug }));
      const picked = Array.from({ length: total }, (_, i) => selectShard(entries, { index: i + 1, total }));
      const all = picked.flat().map((e) => e.slug);
      expect(all.sort()).toEqual([...slugs].sort());
      expect(new Set(all).size).toBe(slugs.length);
    }
  });

  it('depends only on the slug and the count: adding providers does not move the others', () => {
    const before = new Map(slugs.slice(0, 50).map((s) => [s, shardOf(s, 4)]));
    const more = [...slugs.slice(0, 50).reverse(), 'new-one', 'another-new'].map((slug) => ({ slug }));
    for (let index = 1; index <= 4; index++) {
      for (const e of selectShard(more, { index, total: 4 })) {
        if (before.has(e.slug)) expect(before.get(e.slug)).toBe(index);
      }
    }
  });

  it('is a fixed function of the slug (pinned values, so a change of the hash cannot pass unnoticed)', () => {
    // first 4 bytes of sha256(slug), big-endian, mod n, plus 1: the same on every machine and in every release.
    expect(['north-kitchen', 'south-kitchen', 'east-kitchen', 'west-kitchen'].map((s) => shardOf(s, 4))).toEqual([
      1, 4, 4, 3,
    ]);
    const counts = [1, 2, 3, 4].map((index) => slugs.filter((s) => shardOf(s, 4) === index).length);
    // 200 slugs over 4 shards: a hash that ignores the slug would put them all in one.
    for (const n of counts) expect(n).toBeGreaterThan(20);
  });

  it('reads --shard i/n counting from 1', () => {
    expect(parseShardFlag('2/4')).toEqual({ index: 2, total: 4 });
    expect(parseShardFlag('1/1')).toEqual({ index: 1, total: 1 });
  });

  it.each([
    ['0/4', /i must be a whole number from 1 to 4 \(shards count from 1\)/],
    ['5/4', /i must be a whole number from 1 to 4/],
    ['2', /--shard must be written i\/n/],
    ['a/b', /the n of --shard i\/n must be a whole number/],
    ['1/0', /must be a whole number from 1 to 1000 \(got "0"\)/],
    ['1/2/3', /--shard must be written i\/n/],
  ])('refuses --shard %s with a clear usage error', (value, message) => {
    expect(() => parseShardFlag(value)).toThrow(UsageError);
    expect(() => parseShardFlag(value)).toThrow(message);
  });

  it('reads a 0-based index from the environment (Kubernetes JOB_COMPLETION_INDEX)', () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '0' }, 'JOB_COMPLETION_INDEX', '3')).toEqual({ index: 1, total: 3 });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '2' }, 'JOB_COMPLETION_INDEX', '3')).toEqual({ index: 3, total: 3 });
  });

  it.each([
    [{}, '3', /the environment variable JOB_COMPLETION_INDEX is not set/],
    [{ JOB_COMPLETION_INDEX: '3' }, '3', /must be a whole number from 0 to 2 \(got "3"\)/],
    [{ JOB_COMPLETION_INDEX: 'x' }, '3', /must be a whole number from 0 to 2 \(got "x"\)/],
    [{ JOB_COMPLETION_INDEX: '0' }, undefined, /needs --shard-total N/],
    [{ JOB_COMPLETION_INDEX: '0' }, '0', /--shard-total must be a whole number from 1/],
  ])('refuses a bad environment index %j with total %s', (env, total, message) => {
    expect(() => shardFromEnv(env, 'JOB_COMPLETION_INDEX', total)).toThrow(message);
  });

  it('refuses mixing --shard with --shard-index-env, and --shard-total alone', () => {
    expect(() => shardFromFlags({ shard: '1/2', shardIndexEnv: 'I' }, {})).toThrow(/not both/);
    expect(() => shardFromFlags({ shardTotal: '2' }, {})).toThrow(/--shard-total needs --shard-index-env/);
    expect(shardFromFlags({}, {})).toBeUndefined();
  });
});
