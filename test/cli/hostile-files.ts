import { mkdir, mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Hostile files, each where a user's YAML/JSON file goes. `name` is the file in the temp dir. */
export const FILES: Record<
  string,
  { name: string; write?: (path: string) => Promise<void>; says: RegExp; codes?: readonly number[] }
> = {
  'an alias bomb': {
    name: 'bomb.yaml',
    write: (path) =>
      writeFile(
        path,
        [
          'a: &a ["x","x","x","x","x","x","x","x","x"]',
          ...'bcdefghi'.split('').map((k, i) => {
            const prev = 'abcdefghi'[i];
            return `${k}: &${k} [${Array(9).fill(`*${prev}`).join(',')}]`;
          }),
        ].join('\n'),
      ),
    says: /alias bomb|not JSON|not valid JSON/,
  },
  // Issue 32, item 7: few nodes, 600 MB once parsed; refused by the bytes its aliases expand to.
  'a 2 MB string aliased 299 times': {
    name: 'wide-bomb.yaml',
    write: (path) =>
      writeFile(path, `a: &a "${'x'.repeat(2 * 1024 * 1024)}"\nb: [${Array(299).fill('*a').join(',')}]\n`),
    says: /aliases expand it to more than 64 MB|not JSON|not valid JSON/,
  },
  'deep nesting': {
    name: 'deep.json',
    write: (path) => writeFile(path, `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    says: /nested (too deeply|deeper than)/,
  },
  'duplicate keys': {
    name: 'dup.yaml',
    write: (path) => writeFile(path, 'name: a\nname: b\n'),
    says: /unique|duplicate|not JSON|not valid JSON/i,
  },
  'a __proto__ key': {
    name: 'proto.yaml',
    write: (path) => writeFile(path, '__proto__:\n  polluted: true\n'),
    says: /__proto__|not JSON|not valid JSON/,
  },
  'a constructor key': {
    name: 'constructor.json',
    write: (path) => writeFile(path, '{"constructor": {"prototype": {"polluted": true}}}'),
    says: /constructor|not a|must|missing|invalid|reportVersion/i,
    // An ordinary key for a payload: validate judges it (exit 1); everywhere else it is refused (exit 2).
    codes: [1, 2],
  },
  'a 100 MB file': {
    name: 'huge.json',
    // Sparse: the size is real to stat and to read, the disk holds almost nothing.
    write: async (path) => {
      await writeFile(path, '');
      await truncate(path, 100 * 1024 * 1024);
    },
    says: /larger than 64 MB/,
  },
  'a binary file': {
    name: 'binary.yaml',
    write: (path) => writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff, 0x00])),
    says: /binary/,
  },
  'an empty file': { name: 'empty.yaml', write: (path) => writeFile(path, ''), says: /empty|must|missing|nothing/i },
  'a directory': { name: 'folder.yaml', says: /directory/ },
};

/** Every place that reads a YAML/JSON file written by a user, with the file's path. */
export const READERS: Record<string, (file: string) => string[] | undefined> = {
  'batch (fleet file)': (file) => ['batch', file],
  'run --config': (file) => ['run', '--config', file, '--base-url', 'http://127.0.0.1:9'],
  // An empty serve config means every default: the server starts, as it should; not a refusal to test here.
  'serve --config': (file) =>
    file === FILES['an empty file']?.name ? undefined : ['serve', '--config', file, '--port', '0'],
  validate: (file) => ['validate', 'Offering', file],
  'merge-reports': (file) => ['merge-reports', file, '--out', 'merged'],
  replay: (file) => ['replay', file],
  report: (file) => ['report', file],
};

/** A folder holding every hostile file; the caller removes it. */
export async function writeHostileFiles(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-hostile-files-'));
  for (const { name, write } of Object.values(FILES)) {
    if (write) await write(join(dir, name));
    else await mkdir(join(dir, name));
  }
  return dir;
}

/** The environment every reader gets: a credential and an admin token, so only the file can be refused. */
export const HOSTILE_ENV = { NO_COLOR: '1', PROVIDER_API_KEY: 'k', PROVCERT_ADMIN_TOKEN: 't' };

/** [reader, file, argv, says, codes] for every reader and file (serve is not given an empty config). */
export function hostileCases(
  files: readonly string[] = Object.keys(FILES),
): (readonly [string, string, string[], RegExp, readonly number[]])[] {
  return Object.entries(READERS).flatMap(([reader, args]) =>
    Object.entries(FILES)
      .filter(([file]) => files.includes(file))
      .flatMap(([file, { name, says, codes = [2] }]) => {
        const argv = args(name);
        return argv ? [[reader, file, argv, says, codes] as const] : [];
      }),
  );
}

/** One line, exit 2, no stack trace; a reader that judges the file (exit 1) prints no stack trace either. */
export function expectRefused(
  result: { code: number | null; stderr: string; stdout: string },
  says: RegExp,
  codes: readonly number[],
): void {
  const { code, stderr, stdout } = result;
  expect(codes, stderr).toContain(code);
  if (code !== 2) {
    expect(`${stdout}${stderr}`).not.toMatch(/unexpected error|^\s+at /m);
    return;
  }
  const lines = stderr.trim().split('\n');
  expect(stderr).not.toMatch(/unexpected error|^\s+at /m);
  expect(lines[0]).toMatch(/^provcert: /);
  expect(lines.length, stderr).toBeLessThanOrEqual(2);
  expect(stderr).toMatch(says);
}
