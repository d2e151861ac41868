import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/model/errors.js';
import { failingReport } from '../../report/sample-reports.js';
import { storedReport } from '../../report/stored-report.js';
import { captureIo, runCommand } from '../../support/cli-io.js';

/** On a terminal, replay asks before it uses what a report names; only "y"/"yes" is consent. */
describe('replay on a terminal without --base-url and --auth', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'provcert-replay-prompt-'));
    const report = storedReport(failingReport());
    // Port 9 on loopback: nothing listens, so a consented replay ends at once.
    report.inputs = {
      ...report.inputs,
      baseUrl: 'http://127.0.0.1:9',
      authMethod: 'API_KEY',
      credentialSource: { kind: 'env', name: 'OPERATOR_SECRET' },
      local: true,
      webhookPort: 0,
      timeoutMs: 500,
    };
    await writeFile(join(dir, 'report.json'), JSON.stringify(report));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function onTerminal(answer: string) {
    const captured = captureIo(dir, { OPERATOR_SECRET: 'operator-secret-prompt-1d' });
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    Object.assign(captured.io.stderr, { isTTY: true });
    captured.io.stdin = stdin;
    stdin.end(answer);
    return captured;
  }

  it.each(['n\n', '\n', 'sure\n'])(
    'answer %j: refused, after saying what it would contact and read',
    async (answer) => {
      const { io, err, out } = onTerminal(answer);
      await expect(runCommand(io, ['replay', 'report.json'])).rejects.toThrow(UsageError);
      expect(err()).toContain('provcert: this replay would take from the report file, not from you:\n');
      expect(err()).toContain('  contact http://127.0.0.1:9\n');
      expect(err()).toContain('  read the credential from the environment variable OPERATOR_SECRET\n');
      expect(err()).toContain('Use these inputs from the report? [y/N] ');
      expect(out()).toBe('');
    },
  );

  it('answer "y": the replay runs against the address the report names', async () => {
    const { io, out } = onTerminal('y\n');
    const code = await runCommand(io, ['replay', 'report.json']);
    expect(out()).toMatch(/^replaying quote-math, webhook, wrong-credential, errors against http:\/\/127\.0\.0\.1:9 /m);
    expect(out()).not.toContain('operator-secret-prompt-1d');
    expect(code).toBe(1);
  }, 60_000);
});
