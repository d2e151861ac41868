import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratch.js';

// Runs in every test file (vitest setupFiles): what scratchDir made goes when the file ends.
afterAll(removeScratchDirs);
