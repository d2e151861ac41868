import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type PackedTarball, packProvcert } from './packed-provcert.js';

/**
 * Global setup of the e2e and docs tiers: `npm pack` once per run, handed to every test through `inject`
 * (packProvcert copies it). Both tiers load this file separately; the one pack is kept on globalThis, the main
 * process they share, and removed when the last of them tears down.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    provcertTarball: PackedTarball | null;
  }
}

interface SharedPack {
  packed: Promise<{ folder: string; tarball: PackedTarball }>;
  users: number;
}

const KEY = Symbol.for('provcert.packed-once');
const shared = globalThis as { [KEY]?: SharedPack };

async function packOnce(): Promise<{ folder: string; tarball: PackedTarball }> {
  const folder = await mkdtemp(join(tmpdir(), 'provcert-packed-'));
  return { folder, tarball: await packProvcert(folder, { fresh: true }) };
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pack = shared[KEY] ?? { packed: packOnce(), users: 0 };
  shared[KEY] = pack;
  pack.users += 1;
  project.provide('provcertTarball', (await pack.packed).tarball);
  return async () => {
    pack.users -= 1;
    if (pack.users > 0) return;
    delete shared[KEY];
    await rm((await pack.packed).folder, { recursive: true, force: true });
  };
}
