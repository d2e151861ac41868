#!/usr/bin/env node
// Thin shim: the CLI lives in src/cli (compiled to dist/ by `npm install`'s prepare step).
import { readFileSync } from 'node:fs';

const [, , only, ...rest] = process.argv;
if (rest.length === 0 && (only === '--version' || only === '-V')) {
  // CI scripts ask for the version often: answer it without loading the CLI (same output as commander's).
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { main } = await import('../dist/src/cli/main.js');
  const code = await main(process.argv);
  // A run stopped by SIGINT/SIGTERM ends now, even if a file-system call it gave up on is still pending (a FIFO).
  if (code === 130 || code === 143) process.exit(code);
  process.exitCode = code;
}
