import { afterAll } from 'vitest';
import { endProcessGroups } from './process-groups.js';
import { removeScratchDirs } from './scratch.js';

// Runs in every test file (vitest setupFiles): what scratchDir made goes when the file ends, and so does every
// process group spawnGroup started.
afterAll(async () => {
  endProcessGroups();
  await removeScratchDirs();
});
