import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../support/cli-io.js';
import { scratchDir } from '../../support/scratch.js';

// A hostile "core": its event fields carry terminal controls, bidi overrides and the operator token back.
const ADMIN = 'operator-token-hostile-core-6621';
const env = { PROVCERT_ADMIN_TOKEN: ADMIN };
let server: Server;
let core = '';
let dir = '';
let answer: () => { status: number; body: string } = () => ({ status: 200, body: '{}' });

beforeAll(async () => {
  dir = await scratchDir('events-hostile');
  server = createServer((_req, res) => {
    const { status, body } = answer();
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  core = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const hostileEvent = {
  seq: 1,
  receivedAt: '2026-11-27T18:00:00.000Z',
  slug: 'demo',
  eventType: 'action.status_updated\u001b[2J\u001b]0;owned\u0007',
  eventId: `evt-\u202Egnp.exe-${ADMIN}`,
  verified: false,
  duplicate: false,
  answeredStatus: 401,
  problem: `signature mismatch\nInjected line\rover ${ADMIN}`,
};

describe('provcert events against a hostile core', () => {
  it.each([
    ['text', [] as string[]],
    ['json', ['--json']],
  ])('%s: no control character reaches the terminal, the token is masked, one line per event', async (_f, flags) => {
    answer = () => ({ status: 200, body: JSON.stringify({ data: [hostileEvent], total: 1 }) });
    const r = await runMain(dir, ['events', 'demo', '--core', core, ...flags], { env });
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out + r.err).not.toContain(ADMIN);
  });

  it.each([
    ['not JSON', 200, 'not json at all'],
    ['a 500 echoing the token', 500, JSON.stringify({ code: 'INTERNAL_ERROR', message: `boom ${ADMIN}\u001b[31m` })],
  ])('%s: exit 1 in one line, nothing leaked', async (_name, status, body) => {
    answer = () => ({ status, body });
    const r = await runMain(dir, ['events', 'demo', '--core', core], { env });
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^provcert: the core answered/);
    expect(r.out + r.err).not.toContain(ADMIN);
    expect(r.err).not.toContain('\u001b');
  });

  it('a 401 that echoes the token: exit 2, the token masked, one line', async () => {
    answer = () => ({
      status: 401,
      body: JSON.stringify({ code: 'UNAUTHORIZED', message: `not ${ADMIN}\n\u001b[2J` }),
    });
    const r = await runMain(dir, ['events', 'demo', '--core', core], { env });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refused the operator token/);
    expect(r.err).not.toContain(ADMIN);
    expect(r.err).not.toContain('\u001b');
  });
});
