#!/usr/bin/env node
// Thin shim: the CLI lives in src/cli (compiled to dist/ by `npm install`'s prepare step).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv);
