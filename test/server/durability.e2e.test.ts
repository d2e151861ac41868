import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, rm, symlink } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';
import { event, pool, post, sign } from './support/http-client.js';
import { transpileClosure } from './support/transpile.js';

const SECRET = 'whsec_durability_canary';
const ROOT = join(import.meta.dirname, '..', '..');
let workDir: string;
let childScript: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  workDir = await scratchDir('durable');
  childScript = await transpileClosure(ROOT, 'test/server/support/durable-child.ts', join(workDir, 'build'));
  // The transpiled child imports packages (yaml, ajv) by name: let it resolve them from the repo.
  await symlink(join(ROOT, 'node_modules'), join(workDir, 'build', 'node_modules'), 'dir');
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

function startChild(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [childScript, dataDir, join(ROOT, 'spec', 'openapi.yaml')], {
    env: { ...process.env, CHILD_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited early with ${String(code)}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      resolve({ child, port: (JSON.parse(line) as { port: number }).port });
    });
  });
}

describe('durability', () => {
  it('after SIGKILL mid-load and a restart, every event answered success is in the log', async () => {
    const dataDir = join(workDir, 'data');
    const { child, port } = await startChild(dataDir);
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    const acknowledged: string[] = [];
    let killed = false;
    const ids = Array.from({ length: 3_000 }, (_, i) => `dur-${i}`);
    await pool(ids, 50, async (id) => {
      if (killed) return;
      const body = JSON.stringify(event({ eventId: id }));
      try {
        const answer = await post(
          `http://127.0.0.1:${port}/api/v1/webhooks/demo`,
          body,
          { 'content-type': 'application/json', 'x-service-signature': sign(SECRET, body) },
          agent,
        );
        if (answer.status === 200) acknowledged.push(id);
      } catch {
        return; // the server died under this request: not acknowledged
      }
      if (!killed && acknowledged.length >= 400) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    agent.destroy();
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const restarted = await startChild(dataDir);
    const reloaded = await post(`http://127.0.0.1:${restarted.port}/api/v1/webhooks/demo`, '{}', {
      'content-type': 'application/json',
    });
    expect(reloaded.status).toBe(401); // the restarted server serves
    restarted.child.kill('SIGKILL');

    const text = await readFile(join(dataDir, 'webhooks', 'demo.jsonl'), 'utf8');
    const logged = new Set(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { eventId: string }).eventId),
    );
    const missing = acknowledged.filter((id) => !logged.has(id));
    expect(missing).toEqual([]);
  });
});
