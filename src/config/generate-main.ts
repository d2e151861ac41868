import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { specSchema } from '../util/spec-schema.js';
import type { OptionTable } from './options.js';
import { generateRunSettingsModule, RUN_SETTINGS_MODULE } from './run-settings-type.js';

/*
 * `npm run build`, after tsc: refresh the committed run settings module when spec/config.schema.json changed (a test
 * fails until it is current, as for the contract's generated files).
 */
const path = join(packageRoot, RUN_SETTINGS_MODULE);
const text = generateRunSettingsModule(specSchema('config.schema.json') as OptionTable['schema']);
const current = existsSync(path) ? await readFile(path, 'utf8') : undefined;
if (current !== text && existsSync(join(packageRoot, 'src'))) {
  await writeFile(`${path}.${process.pid}.partial`, text);
  await rename(`${path}.${process.pid}.partial`, path);
  process.stdout.write(`provcert build: regenerated ${RUN_SETTINGS_MODULE} from spec/config.schema.json (commit it)\n`);
}
