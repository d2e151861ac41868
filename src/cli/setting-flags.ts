import { flagNameOf } from '../config/options.js';
import type { SpellSetting } from '../model/setting-speller.js';

/**
 * The flag of a setting a lower layer names (webhookPort → --webhook-port, port → --port, shard → --shard): settings
 * are the camelCase names of the flags. A setting named with more words ("webhookPort (in the fleet file)") is a
 * file's key, shown as it is.
 */
export const flagOfSetting = (setting: string): string =>
  /^[a-z][A-Za-z]*$/.test(setting) ? flagNameOf(setting) : setting;

/** Advice in findings, as the cli's users type it: `--max-expiry-wait 130`, `--local`. */
export const spellAsFlag: SpellSetting = (setting, value) =>
  value === undefined ? flagOfSetting(setting) : `${flagOfSetting(setting)} ${value}`;
