import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/model/report.js';
import { passingReport } from '../../report/sample-reports.js';
import { storedReport } from '../../report/stored-report.js';
import { type CliResult, REPO_ROOT } from '../../support/cli.js';
import { type ClockedReference, startClockedReference } from '../../support/cli-clock.js';
import { type MainResult, runMain } from '../../support/cli-io.js';
import { scratchDir } from '../../support/scratch.js';

/**
 * provcert replay in-process against the reference provider, both on one manual clock (test/support/cli-clock.ts):
 * what replay decides and prints. replay.e2e.test.ts replays through the built CLI.
 */
const CREDENTIAL = 'replay-key-31a9f';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: 'replay-secret-77c2e' };
const secrets = { credential: env.PROVIDER_API_KEY, webhookSecret: env.SERVICE_WEBHOOK_SECRET };

const asCliResult = (r: MainResult): CliResult => ({ code: r.code, stdout: r.out, stderr: r.err });
const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

// The three suites share nothing (each its own provider, clock and report): they run side by side. The replays of one
// report run one after the other: each starts the receiver on the report's webhook port.
describe.concurrent('provcert replay (operator flow against the reference provider)', () => {
  let reference: ClockedReference;
  let dir = '';
  let reportPath = '';
  // The person replaying names the provider; the report's own address is only shown.
  const mine = (): string[] => ['--base-url', reference.url, '--auth', 'API_KEY'];
  const runCli = (args: string[], options: { env: NodeJS.ProcessEnv }): Promise<CliResult> =>
    reference.cli(args, { cwd: dir, ...options }).then(asCliResult);

  beforeAll(async () => {
    dir = await scratchDir('replay-report');
    reportPath = join(dir, 'report.json');
    reference = await startClockedReference({ ...secrets, faults: ['quote-total-wrong'] });
    const flags = [
      '--auth',
      'API_KEY',
      '--local',
      '--webhook-port',
      String(reference.webhookPort),
      '--skip',
      // quote-explore would fail on the wrong total too: this flow replays the one failure of quote-math.
      'quote-expiry,quote-explore',
      '--json',
      reportPath,
    ];
    const run = await runCli(['run', '--base-url', reference.url, ...flags], { env });
    expect(run.code).toBe(1);
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id)).toEqual([
      'quote-math',
    ]);
  });
  afterAll(async () => {
    await reference?.close();
  });

  it.sequential('a failure that still reproduces: "still fails" with its computation, reproduce command and request; exit 1', async () => {
    const replay = await runCli(['replay', reportPath, ...mine()], { env });
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/^replaying quote-math against http:\/\/127\.0\.0\.1:\d+ \(seed \w+\)$/m);
    expect(replay.stdout).toMatch(/^quote-math: still fails — total is \d+; expected \d+ = /m);
    expect(replay.stdout).toMatch(/^ {4}total: expected [\d +−]+ = \d+, provider \d+$/m);
    expect(replay.stdout).toMatch(/^ {4}reproduce:\n {6}BODY=/m);
    expect(replay.stdout).toContain('-H "x-provider-api-key: $PROVIDER_API_KEY"');
    expect(replay.stdout).toMatch(/^ {4}request: POST http:\/\/127\.0\.0\.1:\d+\/quote → 200$/m);
    expect(lastLine(replay.stdout)).toBe('replayed 1 check: 1 still fails');
    expect(replay.stdout + replay.stderr).not.toContain(CREDENTIAL);
  });

  it.sequential.each([
    ['health', 'passed', /^health: was not a failure — originally passed; now passes: /m],
    [
      'signature',
      'skipped',
      /^signature: was not a failure — originally skipped; now skipped: applies only to auth method HMAC_SIGNATURE/m,
    ],
  ])('--check %s (a check that %s) is "was not a failure", exit 0', async (id, _status, line) => {
    const replay = await runCli(['replay', reportPath, ...mine(), '--check', id], { env });
    expect(replay.stdout).toMatch(line);
    expect(replay.stdout).not.toMatch(/still|reproduce/);
    expect(lastLine(replay.stdout)).toBe('replayed 1 check: 1 was not a failure');
    expect(replay.code).toBe(0);
  });

  it.sequential('the credential comes from the default variable, or from --credential-env / --credential-file instead', async () => {
    const withoutKey = { SERVICE_WEBHOOK_SECRET: env.SERVICE_WEBHOOK_SECRET };
    const keyFile = join(dir, 'provider.key');
    await writeFile(keyFile, `${CREDENTIAL}\n`);
    // The two refused before any request (exit 2) run beside the first replay; the replays, one at a time.
    const [missing, both, byEnv] = await Promise.all([
      runCli(['replay', reportPath, ...mine()], { env: withoutKey }),
      runCli(['replay', reportPath, '--credential-file', keyFile, '--credential-env', 'X'], { env }),
      runCli(['replay', reportPath, ...mine(), '--credential-env', 'OTHER_PROVIDER_KEY'], {
        env: { ...withoutKey, OTHER_PROVIDER_KEY: CREDENTIAL },
      }),
    ]);
    const byFile = await runCli(['replay', reportPath, ...mine(), '--credential-file', keyFile], { env: withoutKey });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'provcert: missing credential: the environment variable PROVIDER_API_KEY is not set\n' +
        '  set PROVIDER_API_KEY, or pass --credential-env NAME or --credential-file PATH\n',
    );

    expect(lastLine(byEnv.stdout)).toBe('replayed 1 check: 1 still fails');
    expect(byEnv.code).toBe(1);

    expect(lastLine(byFile.stdout)).toBe('replayed 1 check: 1 still fails');
    expect(byFile.code).toBe(1);

    expect(both.code).toBe(2);
    expect(both.stderr).toBe('provcert: --credential-env and --credential-file are alternatives; pass one\n');
  });

  it.sequential('once the provider is fixed: "fixed", exit 0; report text is masked and shown escaped', async () => {
    await reference.restart([]);
    // A report is untrusted: its message here carries the credential and a screen-clearing escape.
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    const check = report.checks.find((c) => c.id === 'quote-math');
    if (check) check.message = `total wrong ${CREDENTIAL} \u001b[2J\u0007`;
    const hostilePath = join(dir, 'hostile.json');
    await writeFile(hostilePath, JSON.stringify(report));

    const replay = await runCli(['replay', hostilePath, ...mine()], { env });
    expect(replay.stdout).toMatch(
      /^quote-math: fixed — passes now \(was fail: total wrong \*\*\*\* \\x1b\[2J\\x07\)$/m,
    );
    expect(replay.stdout).not.toMatch(/[\u0007\u001b]/);
    expect(replay.stdout).not.toContain(CREDENTIAL);
    expect(lastLine(replay.stdout)).toBe('replayed 1 check: 1 fixed');
    expect(replay.code).toBe(0);
  });

  it.sequential('a provider that cannot be reached any more is "not run", never "fixed": exit 1', async () => {
    await reference.stop();
    const replay = await runCli(['replay', reportPath, ...mine()], { env });
    expect(replay.stdout).toMatch(/^quote-math: not run — skipped: the provider could not be reached/m);
    expect(lastLine(replay.stdout)).toBe('replayed 1 check: 1 not run');
    expect(replay.code).toBe(1);
  });
});

describe.concurrent('provcert replay keeps the exploration of the report it replays', () => {
  let reference: ClockedReference | undefined;
  afterAll(async () => {
    await reference?.close();
  });

  it('a run with --explore 7 is replayed exploring 7 orders with the same seed; --explore overrides it', async () => {
    const provider = await startClockedReference(secrets);
    reference = provider;
    const dir = await scratchDir('replay-explore');
    const runCli = (args: string[], options: { env: NodeJS.ProcessEnv }): Promise<CliResult> =>
      provider.cli(args, { cwd: dir, ...options }).then(asCliResult);
    const reportPath = join(dir, 'report.json');
    const flags = ['--auth', 'API_KEY', '--local', '--webhook-port', String(provider.webhookPort)];
    const run = await runCli(
      [
        'run',
        '--base-url',
        provider.url,
        ...flags,
        // Only the check replayed here: what it explores does not depend on the others (a PARTIAL run).
        '--only',
        'quote-explore',
        '--explore',
        '7',
        '--seed',
        'e7e7',
        '--json',
        reportPath,
      ],
      { env },
    );
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as RunReport;
    const explored = report.checks.find((c) => c.id === 'quote-explore');
    expect(explored?.status, run.stdout).toBe('pass');
    expect(explored?.message).toMatch(/^explored 7 generated order\(s\) and \d+ limit case\(s\) with seed e7e7 /);
    expect(report.inputs).toMatchObject({ seed: 'e7e7', explore: 7 });

    const mine = ['--base-url', provider.url, '--auth', 'API_KEY', '--check', 'quote-explore'];
    const replay = await runCli(['replay', reportPath, ...mine], { env });
    expect(replay.stderr).toBe('');
    expect(replay.stdout).toMatch(
      /^replaying quote-explore against http:\/\/127\.0\.0\.1:\d+ \(seed e7e7, --explore 7\)$/m,
    );
    // The same seed and budget send the same orders: the rerun says word for word what the run said.
    expect(replay.stdout).toContain(
      `quote-explore: was not a failure — originally passed; now passes: ${explored?.message}`,
    );
    expect(replay.code).toBe(0);

    const fewer = await runCli(['replay', reportPath, ...mine, '--explore', '3'], { env });
    expect(fewer.stdout).toMatch(/\(seed e7e7, --explore 3\)$/m);
    expect(fewer.stdout).toMatch(/now passes: explored 3 generated order\(s\) and \d+ limit case\(s\) with seed e7e7 /);
  });
});

describe.concurrent('provcert replay: unusable input is one line, exit 2', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await scratchDir('replay-input');
    await writeFile(join(dir, 'pass.json'), JSON.stringify(storedReport(passingReport())));
    await writeFile(join(dir, 'not-json.json'), '{"reportVersion": 1,');
    await writeFile(join(dir, 'v2.json'), JSON.stringify({ ...passingReport(), reportVersion: 2 }));
    await writeFile(
      join(dir, 'bad-status.json'),
      JSON.stringify({ ...passingReport(), checks: [{ ...passingReport().checks[0], status: 'passed' }] }),
    );
  });

  it.each([
    [['missing.json'], /^provcert: cannot read report missing\.json \(no such file\)$/],
    [
      ['package.json'],
      /^provcert: package\.json is not a provcert JSON report \(a run's report in the json format\): it has no reportVersion$/,
    ],
    [['not-json.json'], /^provcert: not-json\.json is not JSON; expected the JSON report of a run/],
    [['v2.json'], /^provcert: v2\.json has reportVersion 2; this provcert reads reportVersion 1 reports$/],
    [
      ['bad-status.json'],
      /^provcert: bad-status\.json is not a valid provcert JSON report .*: \/checks\/0\/status must be equal to one of the/,
    ],
    [
      ['pass.json'],
      /^provcert: the report has no failed check to replay \(verdict PASS\); pass --check ID to rerun one anyway$/,
    ],
    [['pass.json', '--check', 'nonsense'], /^provcert: --check takes one known check id \(got "nonsense"\)$/],
    [['pass.json', '--check', 'idempotency'], /^provcert: the report has no check "idempotency"$/],
  ])('replay %j', async (args, message) => {
    const cwd = args[0] === 'package.json' ? REPO_ROOT : dir;
    const r = asCliResult(await runMain(cwd, ['replay', ...args], { env }));
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
