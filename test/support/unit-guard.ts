import { createRequire, syncBuiltinESMExports } from 'node:module';

// The builtins' CommonJS objects: what their ESM named exports are synced from.
const require = createRequire(import.meta.url);
const net = require('node:net') as typeof import('node:net');
const childProcess = require('node:child_process') as Record<string, unknown>;

/**
 * Setup file of the unit project: a unit test opens no socket and starts no process (the brief's tiers). Listening,
 * connecting and spawning throw here, naming the tier the test belongs in, so a file that does either fails
 * instead of slowing the inner loop or depending on the machine. The patches are made once per worker (the unit
 * project shares workers between files); `syncBuiltinESMExports` carries them to `import { spawn } from ...`.
 */
export const UNIT_GUARD = Symbol.for('provcert.unit-guard');

export class TierViolation extends Error {
  constructor(what: string, tier: string) {
    super(`a unit test ${what}; name the file *.${tier}.test.ts (see docs/architecture.md, "Test tiers")`);
    this.name = 'TierViolation';
  }
}

const refuse = (what: string, tier: string) => (): never => {
  throw new TierViolation(what, tier);
};

const CHILD_PROCESS_FUNCTIONS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

function install(): void {
  const marked = globalThis as { [UNIT_GUARD]?: true };
  if (marked[UNIT_GUARD]) return;
  marked[UNIT_GUARD] = true;
  net.Server.prototype.listen = refuse('listens on a socket', 'int');
  net.Socket.prototype.connect = refuse('opens a connection', 'int');
  for (const name of CHILD_PROCESS_FUNCTIONS) childProcess[name] = refuse(`starts a process (${name})`, 'e2e');
  syncBuiltinESMExports();
}

install();
