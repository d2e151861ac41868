import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { BUNDLED_SPEC_PATH } from './bundled-path.js';
import { GENERATED_DIR, GENERATED_DTS, GENERATED_JS, generateValidatorModule } from './generate.js';
import { GENERATED_TYPES, generateContractTypes } from './generate-types.js';

/*
 * `npm run build`, after tsc: generate the bundled contract's validators and types, write them into dist (beside
 * this compiled file) and refresh the committed copies under src/contract/generated when the spec changed.
 */

/**
 * Write only what differs, so an unchanged spec leaves the checkout untouched; true when written. The rename
 * makes the change atomic: a test process importing the module meanwhile never reads half a file.
 */
async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = existsSync(path) ? await readFile(path, 'utf8') : undefined;
  if (current === text) return false;
  await mkdir(join(path, '..'), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, path);
  return true;
}

const generated = await generateValidatorModule(BUNDLED_SPEC_PATH);
if (!generated.ok) {
  process.stderr.write(`provcert build: ${generated.error.message}\n`);
  process.exit(2);
}
const { js, dts } = generated.value;
const types = await generateContractTypes(BUNDLED_SPEC_PATH);
// tsc emits no declaration for a .d.ts or a .js it did not compile: the build output gets all three here.
const distDir = join(import.meta.dirname, GENERATED_DIR);
await writeIfChanged(join(distDir, GENERATED_JS), js);
await writeIfChanged(join(distDir, GENERATED_DTS), dts);
await writeIfChanged(join(distDir, GENERATED_TYPES), types);
const sourceDir = join(packageRoot, 'src', 'contract', GENERATED_DIR);
if (existsSync(join(packageRoot, 'src', 'contract'))) {
  const changed = [
    await writeIfChanged(join(sourceDir, GENERATED_JS), js),
    await writeIfChanged(join(sourceDir, GENERATED_DTS), dts),
    await writeIfChanged(join(sourceDir, GENERATED_TYPES), types),
  ];
  if (changed.some(Boolean))
    process.stdout.write(
      `provcert build: regenerated src/contract/${GENERATED_DIR}/ from spec/openapi.yaml (commit it)\n`,
    );
}
