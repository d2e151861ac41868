import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo } from '../support/cli-io.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('provcert batch on an empty fleet', () => {
  it.each([
    ['an empty list', 'providers: []\n'],
    ['an empty list in flow style with defaults', 'defaults: { auth: API_KEY }\nproviders: [ ]\n'],
  ])('%s is a usage error (exit 2) in one line, with no report written', async (_name, body) => {
    const dir = await mkdtemp(join(tmpdir(), 'provcert-empty-fleet-'));
    made.push(dir);
    await writeFile(join(dir, 'fleet.yaml'), `name: food-partners\n${body}`);
    const { io, out, err } = captureIo(dir, {});
    const code = await main(['node', 'provcert', 'batch', 'fleet.yaml', '--no-color', '--out', 'out'], io);
    expect(code, out() + err()).toBe(2);
    const lines = err().trim().split('\n');
    expect(lines[0]).toMatch(/fleet\.yaml: the fleet has no providers \(providers: \[\]\); list at least one/);
    expect(out()).not.toMatch(/passed/i);
  });
});
