import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CliResult, runCli } from './cli.js';
import { scratchDir } from './scratch.js';

const RECORDER = join(import.meta.dirname, 'record-loads.mjs');

/**
 * Runs the built CLI and names the packages (below node_modules) whose modules the ES module loader loaded, each once,
 * in load order: what a command costs at start-up beyond provcert's own code.
 */
export async function packagesLoadedBy(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ result: CliResult; packages: string[] }> {
  const log = join(await scratchDir('loads'), 'loads.txt');
  const result = await runCli(args, {
    env: { ...env, NODE_OPTIONS: `--import="${RECORDER}"`, PROVCERT_LOAD_LOG: log },
  });
  const urls = (await readFile(log, 'utf8').catch(() => '')).split('\n');
  const packages = urls.flatMap((url) => {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    return name ? [name] : [];
  });
  return { result, packages: [...new Set(packages)] };
}
