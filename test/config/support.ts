import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchDir } from '../support/scratch.js';

/** A throwaway working directory, optionally holding a provcert.config.yaml. */
export async function tempDir(): Promise<{
  dir: string;
  write(name: string, text: string): Promise<string>;
  remove(): Promise<void>;
}> {
  const dir = await scratchDir('config');
  return {
    dir,
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text, 'utf8');
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
