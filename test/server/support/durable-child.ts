/**
 * Child process for the durability test: starts the core server on a free port and prints it.
 * argv: dataDir, specPath (the transpiled copy cannot find the bundled spec itself); env: CHILD_WEBHOOK_SECRET.
 */

import { loadContract } from '../../../src/contract/load.js';
import { startCoreServer } from '../../../src/server/core-server.js';

const [, , dataDir, specPath] = process.argv;
const secret = process.env['CHILD_WEBHOOK_SECRET'];
if (dataDir === undefined || specPath === undefined || secret === undefined) {
  process.stderr.write('usage: durable-child <dataDir> <specPath> (CHILD_WEBHOOK_SECRET set)\n');
  process.exit(2);
}
const contract = await loadContract(specPath);
const server = await startCoreServer({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  contract,
  secretFor: (s) => (s === 'demo' ? secret : undefined),
});
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
