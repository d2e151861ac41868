import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asWritten, EXAMPLE_PORTS, freePortsFor, withPorts } from './example-ports.js';
import { repo } from './packed-provcert.js';

const ports = new Map([
  [4010, 51010],
  [8787, 58787],
]);

describe('withPorts: the examples run with free ports, and nothing else changed', () => {
  it('replaces a fixed port where it stands as a whole number, nowhere else', () => {
    expect(withPorts('--port 4010 --webhook-url http://127.0.0.1:8787/api/v1 14010 40100 4010x', ports)).toBe(
      '--port 51010 --webhook-url http://127.0.0.1:58787/api/v1 14010 40100 51010x',
    );
  });

  it('refuses a text that already holds one of the free ports: putting the fixed ones back would change it', () => {
    expect(() => withPorts('--port 4010 --timeout 51010', ports)).toThrow(/would change more than the ports/);
  });

  it('picks a distinct free port for each fixed one, none of them a fixed port', async () => {
    const free = await freePortsFor();
    expect([...free.keys()]).toEqual([...EXAMPLE_PORTS]);
    const chosen = [...free.values()];
    expect(new Set(chosen).size).toBe(EXAMPLE_PORTS.length);
    for (const port of chosen) expect(EXAMPLE_PORTS).not.toContain(port);
  });

  it.each([
    'examples/github-actions.yml',
    'examples/gitlab-ci.yml',
    'examples/fleet/fleet.yaml',
    'examples/fleet/github-actions-matrix.yml',
    'examples/fleet/gitlab-parallel.yml',
    'examples/fleet/k8s-indexed-job.yaml',
  ])('%s: every fixed port replaced, and the fixed ones put back give the file as written', async (path) => {
    const written = await readFile(join(repo, path), 'utf8');
    const free = await freePortsFor();
    const run = withPorts(written, free);
    expect(EXAMPLE_PORTS.some((port) => written.includes(String(port)))).toBe(true);
    for (const port of EXAMPLE_PORTS) expect(run).not.toMatch(new RegExp(`\\b${port}\\b`));
    expect(asWritten(run, free)).toBe(written);
  });
});
