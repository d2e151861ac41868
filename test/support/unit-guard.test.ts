import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';

// This file is in the unit tier, whose setup file (unit-guard.ts) makes sockets and processes throw. If the guard
// were not installed, each of these would do what a unit test must not, and the test would fail.
describe('the unit tier refuses what belongs in another tier', () => {
  it('refuses to listen on a socket, naming the integration tier', () => {
    const server = createServer();
    expect(() => server.listen(0, '127.0.0.1')).toThrow(
      /a unit test listens on a socket; name the file \*\.int\.test\.ts/,
    );
  });

  it('refuses to open a connection (an HTTP client included)', async () => {
    expect(() => connect(9, '127.0.0.1')).toThrow(/opens a connection/);
    await expect(fetch('http://127.0.0.1:1234/')).rejects.toMatchObject({ cause: { name: 'TierViolation' } });
  });

  it('refuses to start a process, naming the e2e tier, through named imports too', () => {
    expect(() => spawn(process.execPath, ['-e', ''])).toThrow(
      /starts a process \(spawn\); name the file \*\.e2e\.test\.ts/,
    );
    expect(() => execFileSync(process.execPath, ['-e', ''])).toThrow(/starts a process \(execFileSync\)/);
  });
});
