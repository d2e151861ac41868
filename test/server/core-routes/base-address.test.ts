import { describe, expect, it } from 'vitest';
import { flagOfSetting } from '../../../src/cli/setting-flags.js';
import { judgeBaseAddress } from '../../../src/http/base-address.js';
import { spellAsConfigKey } from '../../../src/model/setting-speller.js';
import { baseAddressProblems } from '../../../src/server/core-routes/base-address.js';

/** serve's registration refuses exactly what the base-url check refuses (DECISIONS.md, Addresses): one rule. */

const CORE = 'http://127.0.0.1:8080';

describe("serve's registration judges a base address by the base-url check's rules", () => {
  it.each<[string, boolean, RegExp | undefined]>([
    ['https://api.example.com/provider', false, undefined],
    ['http://api.example.com', false, /must be public HTTPS \(use the local setting only for a local self-test\)/],
    ['https://10.0.0.5/api', false, /is a private address \(10\.0\.0\.0\/8\)/],
    ['https://intranet/api', false, /single-label name/],
    ['https://printer.local', false, /\.local \(mDNS\) name/],
    ['https://api.example.com/health', false, /ends with \/health/],
    ['http://127.0.0.1:3000', true, undefined],
    ['https://intranet/api', true, undefined],
    ['http://localhost:8080/api', true, /this core server's own address/],
    ['ftp://api.example.com', true, /uses ftp; expected https/],
    ['not a url', true, /not an absolute URL/],
  ])('%s (local %s)', (base, local, refused) => {
    const problems = baseAddressProblems(base, { local, coreUrl: CORE });
    if (refused === undefined) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toMatch(refused);
    const check = judgeBaseAddress(base, {
      local,
      service: [{ what: 'the core', url: CORE }],
      spell: spellAsConfigKey,
    });
    expect(problems.length).toBe(check.problems.length);
  });
});

describe('a refusal names the local setting as the server’s users set it', () => {
  it.each<[string, RegExp]>([
    ['serve on the command line', /use --local only for a local self-test/],
    ['a config file or the library', /use the local setting only for a local self-test/],
  ])('%s', (front, named) => {
    const spell = front.startsWith('serve') ? flagOfSetting : undefined;
    const problems = baseAddressProblems('http://api.example.com', { local: false, ...(spell ? { spell } : {}) });
    expect(problems.join('\n')).toMatch(named);
  });
});
