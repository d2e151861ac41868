import { createHash } from 'node:crypto';

/** The fingerprint tying the generated validators to the spec file they were generated from. */
export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
