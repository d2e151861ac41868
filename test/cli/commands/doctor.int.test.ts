import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/model/errors.js';
import { tempDir } from '../../config/support.js';
import { providerApi, serveEachTest } from '../../doctor/support.js';
import { captureIo, runCommand } from '../../support/cli-io.js';

const CANARY = 'canary_sk_live_4b9d2e71';
const serve = serveEachTest();

/** Run `provcert doctor …` through commander with a captured CliIo. */
async function doctor(args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()) {
  const { io, out, err } = captureIo(cwd, env);
  const code = await runCommand(io, ['doctor', ...args]);
  return { code, out: out(), err: err() };
}

describe('provcert doctor (command)', () => {
  it('prints one line per finding with ✓ / ! / ✗ and the fix; exit 1 on a failure', async () => {
    const server = await serve(providerApi({ method: 'BEARER_TOKEN', secret: CANARY }));
    const { code, out } = await doctor(['--base-url', server.url, '--auth', 'API_KEY'], { PROVIDER_API_KEY: CANARY });
    expect(code).toBe(1);
    expect(out).toContain(`provcert doctor: ${server.url}/ (API_KEY)`);
    expect(out).toMatch(/^✓ TCP connect: connected to 127\.0\.0\.1:\d+ in \d+ ms$/m);
    expect(out).toMatch(/^! HTTPS on a public address: /m);
    expect(out).toMatch(
      /^✗ Auth header: GET \/provider-info answered 401 with x-provider-api-key \(API_KEY\) but 200 with Authorization: Bearer; you configured API_KEY$/m,
    );
    expect(out).toContain('    fix: use --auth BEARER_TOKEN');
    expect(out).toMatch(/^- TLS certificate: plain http: no TLS$/m);
    expect(out).toMatch(/\nFAIL {2}\d+ passed, 1 warning, 1 failed, 1 skipped\n$/);
  });

  it('exit 0 when nothing failed; --json prints the findings', async () => {
    const server = await serve(providerApi({ method: 'HMAC_SIGNATURE', secret: CANARY }));
    const { code, out } = await doctor(
      ['--base-url', server.url, '--auth', 'hmac', '--json', '--credential-env', 'MY_SECRET'],
      { MY_SECRET: CANARY },
    );
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      verdict: string;
      authMethod: string;
      findings: Array<{ id: string; status: string; title: string; detail: string }>;
    };
    expect(report.verdict).toBe('PASS');
    expect(report.authMethod).toBe('HMAC_SIGNATURE');
    expect(report.findings.find((f) => f.id === 'auth')).toMatchObject({ status: 'ok', title: 'Auth header' });
  });

  it('the canary credential never appears, in text or JSON, even with whitespace and a provider that echoes it', async () => {
    // A hostile provider that echoes every request header back in its body and error messages.
    const server = await serve((req, res) =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: 'UNAUTHORIZED', message: JSON.stringify(req.headers) })),
    );
    const env = { PROVIDER_API_KEY: ` ${CANARY}\n` };
    for (const extra of [[], ['--json'], ['--auth', 'bearer'], ['--auth', 'bearer', '--json']]) {
      const { out, err } = await doctor(['--base-url', server.url, ...extra], env);
      expect(out + err).not.toContain(CANARY);
      expect(out).toContain('Credential whitespace');
    }
  });

  it('reads the credential from --credential-file and names the file, not the value', async () => {
    const tmp = await tempDir();
    try {
      await tmp.write('key.txt', `${CANARY}  \n`);
      const server = await serve(providerApi({ method: 'API_KEY', secret: CANARY }));
      const { code, out } = await doctor(
        ['--base-url', server.url, '--auth', 'API_KEY', '--credential-file', 'key.txt'],
        {},
        tmp.dir,
      );
      expect(code).toBe(1);
      expect(out).toContain(
        '✗ Credential whitespace: the credential from the file key.txt has trailing whitespace (value not shown)',
      );
      expect(out).not.toContain(CANARY);
    } finally {
      await tmp.remove();
    }
  });

  it('takes base URL and auth from provcert.config.yaml; flags win', async () => {
    const tmp = await tempDir();
    try {
      const server = await serve(providerApi({ method: 'BEARER_TOKEN', secret: CANARY }));
      await tmp.write('provcert.config.yaml', `baseUrl: ${server.url}\nauth: API_KEY\n`);
      const fromFile = await doctor(['--json'], { PROVIDER_API_KEY: CANARY }, tmp.dir);
      expect(JSON.parse(fromFile.out)).toMatchObject({ authMethod: 'API_KEY', verdict: 'FAIL' });
      const flagWins = await doctor(['--json', '--auth', 'BEARER_TOKEN'], { PROVIDER_API_KEY: CANARY }, tmp.dir);
      expect(JSON.parse(flagWins.out)).toMatchObject({ authMethod: 'BEARER_TOKEN', verdict: 'PASS' });
      expect(flagWins.code).toBe(0);
    } finally {
      await tmp.remove();
    }
  });

  const usageCases: Array<[string, string[], string]> = [
    ['missing base URL', [], 'missing --base-url <url> (the provider API base address)'],
    [
      'not a URL',
      ['--base-url', 'provider.example.com'],
      '--base-url "provider.example.com" is not a URL (expected e.g. https://provider.example.com/api)',
    ],
    [
      'unknown auth method',
      ['--base-url', 'https://p.example.com', '--auth', 'basic'],
      '--auth "basic" is not an auth method; use API_KEY, BEARER_TOKEN or HMAC_SIGNATURE (aliases api-key, bearer, hmac)',
    ],
    [
      'bad timeout',
      ['--base-url', 'https://p.example.com', '--timeout', 'fast'],
      '--timeout must be a whole number from 100 to 600000 (got "fast")',
    ],
    [
      'unreadable credential file',
      ['--base-url', 'https://p.example.com', '--credential-file', 'missing.txt'],
      'cannot read --credential-file missing.txt (ENOENT)',
    ],
  ];
  for (const [name, args, message] of usageCases) {
    it(`usage error (exit 2): ${name}`, async () => {
      const tmp = await tempDir();
      try {
        const error = await doctor(args, {}, tmp.dir).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).message).toBe(message);
      } finally {
        await tmp.remove();
      }
    });
  }
});
