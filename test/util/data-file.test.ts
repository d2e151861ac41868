import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileError, parseDataText, readDataFile, readDataFileDigest } from '../../src/util/data-file.js';
import { scratchDir } from '../support/scratch.js';

const json = (label: string) => ({ label, format: 'json' as const });

async function refusal(read: Promise<unknown>): Promise<DataFileError> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DataFileError)) throw new Error(`expected a DataFileError, got ${String(error)}`);
  return error;
}

describe('readDataFileDigest: the one reader, with the sha256 of the bytes it parsed', () => {
  it('gives the value and the digest of the file exactly as stored', async () => {
    const dir = await scratchDir('data-file');
    const text = '{ "a": [1, 2, {"b": "ü"}] }\n';
    await writeFile(join(dir, 'x.json'), text);
    const read = await readDataFileDigest(join(dir, 'x.json'), json('x.json'));
    expect(read.value).toEqual({ a: [1, 2, { b: 'ü' }] });
    expect(read.sha256).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });

  it.each<[string, (dir: string) => Promise<string>, Partial<Parameters<typeof readDataFile>[1]>, string, RegExp]>([
    ['a missing file', async (dir) => join(dir, 'none.json'), {}, 'not-found', /^f not found$/],
    ['a directory', async (dir) => dir, {}, 'directory', /^f is a directory, not a file$/],
    [
      'a device, where only a regular file will do',
      async () => '/dev/null',
      { regularFileOnly: true },
      'not-a-file',
      /^f is not a regular file$/,
    ],
    [
      'a file over the size limit',
      async (dir) => {
        await writeFile(join(dir, 'big.json'), `[${'1,'.repeat(600)}1]`);
        return join(dir, 'big.json');
      },
      { maxBytes: 1000 },
      'too-large',
      /^f is larger than \d+ MB; provcert does not read it$/,
    ],
    [
      'JSON nested deeper than the limit, refused before it is parsed',
      async (dir) => {
        await writeFile(join(dir, 'deep.json'), `${'['.repeat(9)}${']'.repeat(9)}`);
        return join(dir, 'deep.json');
      },
      { maxDepth: 8 },
      'too-deep',
      /^f is nested deeper than 8 levels; provcert does not read it$/,
    ],
  ])('refuses %s in one line, telling its kind', async (_name, make, options, kind, message) => {
    const dir = await scratchDir('data-file');
    const error = await refusal(readDataFileDigest(await make(dir), { ...json('f'), ...options }));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const dir = await scratchDir('data-file');
    await writeFile(join(dir, 's.json'), JSON.stringify({ s: `[{"\\"${'['.repeat(50)}` }));
    await expect(readDataFileDigest(join(dir, 's.json'), { ...json('s'), maxDepth: 8 })).resolves.toMatchObject({
      value: { s: `[{"\\"${'['.repeat(50)}` },
    });
  });

  it('reads a device without regularFileOnly (a pipe is how people pass a generated config)', async () => {
    await expect(readDataFile('/dev/null', json('null'))).resolves.toEqual({ value: undefined });
  });
});

describe('parseDataText: aliases are counted by the size they expand to (issue 32, item 7)', () => {
  const yaml = (label: string) => ({ label, format: 'yaml' as const });
  it.each([
    [
      'a 2 MB string aliased 299 times',
      `a: &a "${'x'.repeat(2 * 1024 * 1024)}"\nb: [${Array(299).fill('*a').join(',')}]\n`,
    ],
    [
      'a 1 MB map aliased through two levels',
      `a: &a {k: "${'y'.repeat(1024 * 1024)}"}\nb: &b [${Array(10).fill('*a').join(',')}]\nc: [${Array(10).fill('*b').join(',')}]\n`,
    ],
  ])('refuses %s in one line', (_name, text) => {
    expect(() => parseDataText(text, yaml('f.yaml'))).toThrow(
      /^f\.yaml: refused: its aliases expand it to more than 64 MB once parsed \(an alias bomb\)$/,
    );
  });

  it('reads aliases whose expansion stays within the budget', () => {
    expect(parseDataText('a: &a {x: 1}\nb: [*a, *a]\n', yaml('f.yaml')).value).toEqual({
      a: { x: 1 },
      b: [{ x: 1 }, { x: 1 }],
    });
  });
});
