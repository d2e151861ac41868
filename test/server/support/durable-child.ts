/**
 * Child process for the durability test: starts the core server on a free port and prints it.
 * argv: dataDir; env: CHILD_WEBHOOK_SECRET.
 */
import { startCoreServer } from '../../../src/server/core-server.js';
import { webhookOnlyContract } from './fake-contract.js';

const dataDir = process.argv[2];
const secret = process.env['CHILD_WEBHOOK_SECRET'];
if (dataDir === undefined || secret === undefined) {
  process.stderr.write('usage: durable-child <dataDir> (CHILD_WEBHOOK_SECRET set)\n');
  process.exit(2);
}
const server = await startCoreServer({ host: '127.0.0.1', port: 0, dataDir, contract: webhookOnlyContract(), secretFor: (s) => (s === 'demo' ? secret : undefined) });
process.stdout.write(JSON.stringify({ port: server.port }) + '\n');
