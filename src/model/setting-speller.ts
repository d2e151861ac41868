import type { RunValues } from './run-values.js';

/** A run setting, by its config file key (spec/config.schema.json): what advice in a finding tells a person to change. */
export type SettingName = keyof RunValues;

/**
 * How a front end writes a setting in advice, with an example value or without: the layers below the front ends
 * write findings and name settings only; the cli hands in its flags (`--max-expiry-wait 130`), and everything else
 * (the library, whose options are the config file's keys, fleet, serve and its console) spells config file keys
 * (`maxExpiryWait: 130`).
 */
export type SpellSetting = (setting: SettingName, value?: string | number) => string;

/** Config file keys: fleet files, serve's configuration and any caller that does not hand in its own spelling. */
export const spellAsConfigKey: SpellSetting = (setting, value) =>
  value === undefined ? `the ${setting} setting` : `${setting}: ${value}`;
