#!/usr/bin/env node
// Optional drift check: compares spec/contract/ (the copy the tests use) with a published contract beside
// the repository, when one is there. `npm test` never depends on it (a fresh clone has nothing beside it).
// Usage: npm run check:contract-drift [-- <path of the published contract>]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = 'provider-integration-contract-1.0.0.md';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const copy = join(root, 'spec', 'contract', FILE);
const published = process.argv[2] ?? join(root, '..', 'shared', 'contract', FILE);

let beside;
try {
  beside = readFileSync(published);
} catch {
  console.log(`contract drift: no published contract at ${published}; nothing to compare (the tests use ${copy})`);
  process.exit(0);
}
if (beside.equals(readFileSync(copy))) {
  console.log(`contract drift: ${copy} is byte-identical to ${published}`);
  process.exit(0);
}
console.error(`contract drift: ${copy} differs from ${published}; copy it again: cp ${published} spec/contract/`);
process.exit(1);
