import { Readable, Writable } from 'node:stream';
import { it } from 'vitest';
import { main } from '../../src/cli/main.js';

function sink() { let t = ''; return { s: new Writable({ write(c: Buffer, _e, cb) { t += c.toString(); cb(); } }), t: () => t }; }
const faults = (process.env.H2_FAULTS ?? '').split(' ').filter(Boolean);
it('demo', async () => {
  for (const f of ['', ...faults]) {
    const out = sink(); const err = sink();
    const code = await main(['node', 'provcert', 'demo', '--auth', process.env.H2_AUTH ?? 'API_KEY', ...(f ? ['--fault', f] : [])], { stdout: out.s, stderr: err.s, stdin: Readable.from([]), env: { NO_COLOR: '1' }, cwd: process.cwd(), writeFile: async () => undefined });
    console.log(`==== fault=${f || 'none'} exit=${code}\n${out.t()}\n${err.t()}`);
  }
}, 600000);
