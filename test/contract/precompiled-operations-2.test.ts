import { describeOperationsAgree } from './precompiled-pair.js';

// Half of the payload fixtures (the other half is in precompiled-operations-1.test.ts).
describeOperationsAgree(1);
