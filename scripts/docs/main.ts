import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-root.js';
import { renderPages } from './generate.js';

/*
 * `npm run docs` rewrites the generated tables of docs/ from their sources; `npm run docs:check` (CI) writes
 * nothing and fails naming each stale page and how to regenerate it.
 */

const check = process.argv.includes('--check');
const pages = await renderPages(packageRoot);
let failed = false;
for (const page of pages) {
  for (const problem of page.problems) {
    process.stderr.write(`docs: ${page.page}: ${problem}\n`);
    failed = true;
  }
  if (page.stale.length === 0 || page.problems.length > 0) continue;
  if (check) {
    process.stderr.write(
      `docs: ${page.page} is stale: ${page.stale.join(', ')} changed; run \`npm run docs\` and commit ${page.page}\n`,
    );
    failed = true;
  } else {
    await writeFile(join(packageRoot, page.page), page.wanted);
    process.stdout.write(`docs: wrote ${page.page} (${page.stale.join(', ')})\n`);
  }
}
if (!failed) process.stdout.write(check ? `docs: ${pages.length} generated pages are up to date\n` : '');
process.exitCode = failed ? 1 : 0;
