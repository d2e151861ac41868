import { judgeBaseAddress } from '../../http/base-address.js';
import { type SpellSetting, spellAsConfigKey } from '../../model/setting-speller.js';

/**
 * Why a provider base address breaks the address rules of DECISIONS.md (Addresses): the rules the base-url check
 * judges by, with this server as the service (it is the core, the portal under /console and the receiver). With
 * `local`, http and private hosts are allowed, as in a local self-test.
 */
export function baseAddressProblems(
  value: string,
  options: { local: boolean; coreUrl?: string; spell?: SpellSetting },
): string[] {
  const service =
    options.coreUrl === undefined ? [] : [{ what: "this core server's own address", url: options.coreUrl }];
  const verdict = judgeBaseAddress(value, { local: options.local, service, spell: options.spell ?? spellAsConfigKey });
  return verdict.problems.map((problem) => problem.text);
}
