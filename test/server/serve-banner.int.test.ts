import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flagOfSetting } from '../../src/cli/setting-flags.js';
import { resolveServeSettings } from '../../src/config/serve.js';
import { loadContract } from '../../src/contract/load.js';
import { startServe } from '../../src/server/serve.js';
import { fakeReport } from './support/fake-report.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'provcert-serve-banner-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The banner of a core with no slug configured, allowing local addresses; settings named by `nameSetting`. */
async function banner(nameSetting?: (setting: string) => string): Promise<string[]> {
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  const serve = await startServe(settings, {
    contract: await loadContract(),
    certify: async () => fakeReport('PASS'),
    env: { SERVICE_WEBHOOK_SECRET: 'shared-secret-for-the-banner' },
    cwd: dataDir,
    ...(nameSetting ? { nameSetting } : {}),
  });
  await serve.close();
  return serve.banner;
}

describe("serve's banner names settings; the cli names them as flags", () => {
  it('through the cli: the flags a person types', async () => {
    const lines = await banner(flagOfSetting);
    expect(lines).toContain(
      '  no provider slug configured yet: pass --slug S, list providers in --config, or register one',
    );
    expect(lines).toContain('  --local:        http:// and loopback/private provider addresses are allowed');
  });

  it('without it (the server alone): the settings, never a flag', async () => {
    const lines = await banner();
    expect(lines).toContain(
      '  no provider slug configured yet: pass slug S, list providers in config, or register one',
    );
    expect(lines).toContain('  local:          http:// and loopback/private provider addresses are allowed');
    expect(lines.join('\n')).not.toMatch(/--[a-z]/);
  });
});
