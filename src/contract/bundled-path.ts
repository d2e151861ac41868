import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export const BUNDLED_SPEC_PATH = join(packageRoot, 'spec', 'openapi.yaml');
