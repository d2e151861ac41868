import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppendLog } from '../../src/server/append-log.js';
import { scratchDir } from '../support/scratch.js';

describe('AppendLog (pipelined group commit)', () => {
  it('acknowledges concurrent appends in order, each line exactly once and whole', async () => {
    const path = join(await scratchDir('log'), 'events.jsonl');
    const { log } = await AppendLog.open(path);
    const acked: number[] = [];
    await Promise.all(Array.from({ length: 500 }, (_, i) => log.append({ i }).then(() => acked.push(i))));
    await log.close();
    expect(acked).toEqual(Array.from({ length: 500 }, (_, i) => i));
    const lines = (await readFile(path, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { i: number }).i);
    expect(lines).toEqual(acked);
  });

  it('reloads records and cuts a torn last line left by a crash', async () => {
    const path = join(await scratchDir('log'), 'events.jsonl');
    await writeFile(path, '{"i":1}\n{"i":2}\n{"i":3');
    const { log, records } = await AppendLog.open(path);
    expect(records).toEqual([{ i: 1 }, { i: 2 }]);
    await log.append({ i: 4 });
    await log.close();
    expect(await readFile(path, 'utf8')).toBe('{"i":1}\n{"i":2}\n{"i":4}\n');
  });

  it('rejects appends after close', async () => {
    const path = join(await scratchDir('log'), 'events.jsonl');
    const { log } = await AppendLog.open(path);
    await log.close();
    await expect(log.append({ i: 1 })).rejects.toThrow(/closed/);
  });
});
