import { describe, expect, it } from 'vitest';
import { flagOfSetting } from '../../src/cli/setting-flags.js';
import { SettingError } from '../../src/model/errors.js';
import { MissingSettingError } from '../../src/model/run-values.js';
import { PortInUseError } from '../../src/server/errors.js';

describe('a lower layer names the setting; the cli names the flag', () => {
  it.each([
    ['webhookPort', '--webhook-port'],
    ['port', '--port'],
    ['shard', '--shard'],
    ['baseUrl', '--base-url'],
    // A file's key, named with its file: shown as it is.
    ['webhookPort (in the fleet file)', 'webhookPort (in the fleet file)'],
  ])('%s → %s', (setting, flag) => {
    expect(flagOfSetting(setting)).toBe(flag);
  });

  it('a port in use: the server says the setting, the cli the flag (as main prints it)', () => {
    const error = new PortInUseError(8787, 'webhookPort');
    expect(error).toBeInstanceOf(SettingError);
    expect(error.message).toBe('port 8787 is in use; pass webhookPort with a free port (0 picks one)');
    expect(error.namedAs(flagOfSetting(error.setting))).toBe(
      'port 8787 is in use; pass --webhook-port with a free port (0 picks one)',
    );
  });

  it('a missing setting of resolveRunConfig names the setting, and the flag through the cli', () => {
    const error = new MissingSettingError('baseUrl');
    expect(error.message).toBe('missing baseUrl');
    expect(error.namedAs(flagOfSetting(error.setting))).toBe('missing --base-url');
  });
});
