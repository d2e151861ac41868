import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_SLUG } from '../../../src/reference-provider/index.js';
import { type ClockedReference, startClockedReference } from '../../support/cli-clock.js';
import { scratchDir } from '../../support/scratch.js';

// provcert run in-process on the manual clock against the reference provider: its header names the command that
// tails the webhooks its own receiver gets, with the variable that holds the secret and never the secret.
const CREDENTIAL = 'follow-line-credential-4410';
const SECRET = 'follow-line-webhook-secret-8832';

let reference: ClockedReference;
let dir: string;
beforeAll(async () => {
  dir = await scratchDir('events-run');
  reference = await startClockedReference({ credential: CREDENTIAL, webhookSecret: SECRET });
});
afterAll(() => reference.close());

const runArgs = (): string[] => [
  'run',
  '--base-url',
  reference.url,
  '--auth',
  'API_KEY',
  '--local',
  '--webhook-port',
  String(reference.webhookPort),
  '--skip',
  'quote-expiry',
];

describe("provcert run: the follow line for its receiver's webhooks", () => {
  it.each([
    ['SERVICE_WEBHOOK_SECRET', []],
    ['RUN_HOOK_SECRET', ['--webhook-secret-env', 'RUN_HOOK_SECRET']],
  ] as const)('secret in %s: the header names that variable', async (name, flags) => {
    const r = await reference.cli([...runArgs(), ...flags], {
      cwd: dir,
      env: { PROVIDER_API_KEY: CREDENTIAL, [name]: SECRET },
    });
    expect(r.code, r.err).toBe(0);
    const receiverLine = r.out.split('\n').findIndex((l) => l.startsWith('webhook receiver: '));
    expect(r.out.split('\n')[receiverLine + 1]).toBe(
      `watch its webhooks: provcert events ${REFERENCE_SLUG} --follow --core http://127.0.0.1:${reference.webhookPort} --secret-env ${name}`,
    );
    expect(r.out + r.err).not.toContain(SECRET);
  });
});
