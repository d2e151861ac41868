import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunFlags } from '../../src/cli/run-flags.js';
import { resolveRunOptions } from '../../src/cli/run-options.js';
import { loadRunSources } from '../../src/config/load.js';
import { UsageError } from '../../src/model/errors.js';
import { mergeRunValues, type RunSources } from '../../src/model/run-values.js';
import { tempDir } from './support.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

/** Each source read at its boundary (flags by the cli, environment and file by config/), as `run` reads them. */
const sources = async (
  flags: Record<string, string | boolean | undefined> = {},
  env: NodeJS.ProcessEnv = {},
  configPath?: string,
): Promise<RunSources> => {
  const { env: fromEnv, file } = await loadRunSources({ env, cwd: tmp.dir, configPath });
  return { flags: parseRunFlags(flags), env: fromEnv, file };
};
const load = async (...args: Parameters<typeof sources>) => mergeRunValues(await sources(...args));

describe('precedence: flags > environment > file > defaults', () => {
  const cases: Array<[string, { flag?: string; env?: string; file?: string }, number | undefined]> = [
    ['flag beats environment and file', { flag: '1111', env: '2222', file: '3333' }, 1111],
    ['environment beats file', { env: '2222', file: '3333' }, 2222],
    ['file alone', { file: '3333' }, 3333],
    ['flag alone', { flag: '1111' }, 1111],
    ['nothing set: left to the defaults', {}, undefined],
  ];
  for (const [name, given, want] of cases) {
    it(name, async () => {
      if (given.file) await tmp.write('provcert.config.yaml', `timeout: ${given.file}\n`);
      const merged = await load(
        given.flag ? { timeout: given.flag } : {},
        given.env ? { PROVCERT_TIMEOUT: given.env } : {},
      );
      expect(merged.timeout).toBe(want);
    });
  }

  it('defaults apply after merging (resolveRunConfig), file values flow through typed', async () => {
    await tmp.write('provcert.config.yaml', 'baseUrl: https://provider.example.com\nauth: bearer\nwebhookPort: 0\n');
    const given = await sources({}, { PROVIDER_API_KEY: 'k-123456' });
    const { config } = resolveRunOptions(mergeRunValues(given), { PROVIDER_API_KEY: 'k-123456' }, tmp.dir);
    expect(config).toMatchObject({
      baseUrl: 'https://provider.example.com',
      auth: 'BEARER_TOKEN',
      webhookPort: 0,
      timeout: 10_000,
      webhookTimeout: 30_000,
      maxExpiryWait: 120,
      concurrency: 8,
      webhookHost: '127.0.0.1',
    });
  });

  it('converts every kind once: lists, booleans, integers, paths', async () => {
    await tmp.write(
      'provcert.config.yaml',
      [
        'capabilities: [METADATA, HEALTH, CATALOG]',
        'only: metadata, catalog',
        'local: true',
        'concurrency: 4',
        'seed: 42',
        'json: out/report.json',
        'reporter: [console, junit]',
      ].join('\n'),
    );
    const merged = await load({ spec: 'custom.yaml' } as Record<string, string>);
    expect(merged).toEqual({
      capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
      only: ['metadata', 'catalog'],
      local: true,
      concurrency: 4,
      seed: '42',
      json: 'out/report.json',
      reporter: ['console', 'junit'],
    });
  });

  it('reads every option from PROVCERT_* variables', async () => {
    const merged = await load(
      {},
      {
        PROVCERT_BASE_URL: 'https://p.example.com',
        PROVCERT_AUTH: 'HMAC_SIGNATURE',
        PROVCERT_LOCAL: 'yes',
        PROVCERT_SKIP: 'search,cancel',
        PROVCERT_WEBHOOK_PORT: '9000',
        PROVCERT_PROFILE: '',
      },
    );
    expect(merged).toMatchObject({
      baseUrl: 'https://p.example.com',
      auth: 'HMAC_SIGNATURE',
      local: true,
      skip: ['search', 'cancel'],
      webhookPort: 9000,
    });
    expect(merged.profile).toBeUndefined();
  });

  it('a flag choosing the credential source replaces both credential keys of lower layers', async () => {
    await tmp.write('provcert.config.yaml', 'credentialFile: secret.txt\n');
    const merged = await load({ credentialEnv: 'MY_KEY' });
    expect(merged.credentialEnv).toBe('MY_KEY');
    expect(merged.credentialFile).toBeUndefined();
  });

  it('paths in a --config file elsewhere are relative to that file', async () => {
    await mkdir(join(tmp.dir, 'ci'));
    await tmp.write('ci/provcert.yaml', 'credentialFile: key.txt\njunit: reports/junit.xml\njson: "-"\n');
    const merged = await load({}, {}, 'ci/provcert.yaml');
    expect(merged).toMatchObject({
      credentialFile: join('ci', 'key.txt'),
      junit: join('ci', 'reports', 'junit.xml'),
      json: '-',
    });
  });

  it('PROVCERT_CONFIG names the file when --config is absent', async () => {
    await tmp.write('other.yaml', 'timeout: 500\n');
    expect((await load({}, { PROVCERT_CONFIG: 'other.yaml' })).timeout).toBe(500);
  });

  it('a missing default file is fine; an empty file is an empty config', async () => {
    expect(await load({ auth: 'bearer' })).toEqual({ auth: 'BEARER_TOKEN' });
    await tmp.write('provcert.config.yaml', '# nothing yet\n');
    expect(await load({})).toEqual({});
  });
});

/** The one line a user sees (message), plus the hint line. */
async function usageError(run: () => Promise<unknown>): Promise<{ message: string; hint?: string }> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  const usage = error as UsageError;
  expect(usage.message).not.toContain('\n');
  return { message: usage.message, ...(usage.hint ? { hint: usage.hint } : {}) };
}

describe('config errors: key path + reason, exit 2 (UsageError)', () => {
  const fileCases: Array<[string, string, string]> = [
    ['wrong type', 'webhookPort: abc\n', 'provcert.config.yaml:1: /webhookPort must be integer (found string "abc")'],
    [
      'unknown key with a suggestion',
      'baseURL: https://x.example.com\n',
      'provcert.config.yaml:1: unknown key "baseURL" (did you mean baseUrl?)',
    ],
    [
      'kebab-case key',
      'webhook-port: 1\n',
      'provcert.config.yaml:1: unknown key "webhook-port" (did you mean webhookPort?)',
    ],
    ['typo', 'timout: 100\n', 'provcert.config.yaml:1: unknown key "timout" (did you mean timeout?)'],
    [
      'unknown key far from any',
      'colour: red\n',
      'provcert.config.yaml:1: unknown key "colour"; known keys: baseUrl, auth,',
    ],
    [
      'out of range',
      'webhookPort: 70000\n',
      'provcert.config.yaml:1: /webhookPort must be at most 65535 (found integer 70000)',
    ],
    ['below minimum', 'timeout: 5\n', 'provcert.config.yaml:1: /timeout must be at least 100 (found integer 5)'],
    [
      'enum with suggestion',
      'profile: TRANSACTION\n',
      'provcert.config.yaml:1: /profile must be one of TRANSACTIONAL, DISCOVERY_READONLY, transactional, discovery_readonly (found string "TRANSACTION") (did you mean TRANSACTIONAL?)',
    ],
    [
      'unknown check id in a list',
      'only: [metadata, catlog]\n',
      'provcert.config.yaml:1: /only/1 must be one of base-url,',
    ],
    [
      'boolean written as text',
      'local: "yes"\n',
      'provcert.config.yaml:1: /local must be boolean (found string "yes")',
    ],
    [
      'not a URL',
      'baseUrl: provider.example.com\n',
      'provcert.config.yaml:1: /baseUrl must be an http(s) URL such as https://provider.example.com/api (found string "provider.example.com")',
    ],
    ['null value', 'timeout:\n', 'provcert.config.yaml:1: /timeout must be integer (found null)'],
    [
      'list of wrong type',
      'reporter: 3\n',
      'provcert.config.yaml:1: /reporter must be a list of reporter names, or one comma-separated string (found integer 3)',
    ],
    [
      'both credential sources',
      'credentialEnv: A\ncredentialFile: b.txt\n',
      'provcert.config.yaml: set credentialEnv or credentialFile, not both',
    ],
    ['not a mapping', '- baseUrl\n', 'provcert.config.yaml: must be a mapping of option: value'],
    ['YAML syntax', 'baseUrl: [unclosed\n', 'provcert.config.yaml:'],
    ['duplicate key', 'timeout: 1000\ntimeout: 2000\n', 'provcert.config.yaml:2:1: invalid YAML:'],
  ];
  for (const [name, text, want] of fileCases) {
    it(name, async () => {
      await tmp.write('provcert.config.yaml', text);
      const { message } = await usageError(() => load());
      expect(message.startsWith(want), message).toBe(true);
    });
  }

  it("names the problem's line, as the fleet file does", async () => {
    await tmp.write(
      'provcert.config.yaml',
      'auth: bearer\n# the provider is slow\ntimeout: 5\nbaseURL: https://x.example.com\n',
    );
    const { message, hint } = await usageError(() => load());
    expect(message).toBe('provcert.config.yaml:4: unknown key "baseURL" (did you mean baseUrl?)');
    expect(hint).toBe('provcert.config.yaml:3: /timeout must be at least 100 (found integer 5)');
  });

  it('YAML syntax errors say so, with a line', async () => {
    await tmp.write('provcert.config.yaml', 'auth: bearer\nbaseUrl: [unclosed\n');
    expect((await usageError(() => load())).message).toMatch(/^provcert\.config\.yaml:\d+:\d+: invalid YAML: /);
  });

  it('several problems: the first on the line, the others in the hint', async () => {
    await tmp.write('provcert.config.yaml', 'timeout: x\nconcurrency: 0\n');
    const { message, hint } = await usageError(() => load());
    expect(message).toBe('provcert.config.yaml:1: /timeout must be integer (found string "x")');
    expect(hint).toBe('provcert.config.yaml:2: /concurrency must be at least 1 (found integer 0)');
  });

  it('a missing --config file is an error', async () => {
    const { message, hint } = await usageError(() => load({}, {}, 'nope.yaml'));
    expect(message).toBe('config file nope.yaml not found');
    expect(hint).toContain('provcert init');
  });

  it('environment values are checked and named by their variable', async () => {
    expect((await usageError(() => load({}, { PROVCERT_TIMEOUT: 'soon' }))).message).toBe(
      'environment variable PROVCERT_TIMEOUT must be integer (found string "soon")',
    );
    expect((await usageError(() => load({}, { PROVCERT_LOCAL: 'maybe' }))).message).toBe(
      'environment variable PROVCERT_LOCAL must be boolean (found string "maybe")',
    );
    expect((await usageError(() => load({}, { PROVCERT_ONLY: 'metadata,nope' }))).message).toMatch(
      /^environment variable PROVCERT_ONLY \(entry 2\) must be one of base-url, /,
    );
  });
});

describe('secrets only as environment variable names', () => {
  const CANARY = 'sk_live_CANARY_93f1';
  for (const key of [
    'credential',
    'apiKey',
    'api_key',
    'secret',
    'token',
    'bearerToken',
    'password',
    'providerApiKey',
  ]) {
    it(`rejects "${key}" and points to credentialEnv, without echoing the value`, async () => {
      await tmp.write('provcert.config.yaml', `${key}: ${CANARY}\n`);
      const { message, hint } = await usageError(() => load());
      expect(message).toBe(
        `provcert.config.yaml:1: key "${key}" would hold a secret, and secrets never go in the config file: put the credential in an environment variable and name it with credentialEnv (default PROVIDER_API_KEY), or use credentialFile`,
      );
      expect(`${message} ${hint ?? ''}`).not.toContain(CANARY);
    });
  }

  it('rejects "webhookSecret" and points to webhookSecretEnv', async () => {
    await tmp.write('provcert.config.yaml', `webhookSecret: ${CANARY}\n`);
    const { message } = await usageError(() => load());
    expect(message).toContain('name it with webhookSecretEnv');
    expect(message).not.toContain(CANARY);
  });

  it('a secret pasted as credentialEnv is rejected without being echoed', async () => {
    await tmp.write('provcert.config.yaml', `credentialEnv: ${CANARY.toLowerCase()}\n`);
    const { message } = await usageError(() => load());
    expect(message).toBe(
      'provcert.config.yaml:1: /credentialEnv must be the NAME of an environment variable in capitals, such as PROVIDER_API_KEY (not the secret itself) (value not shown: it may be a secret)',
    );
  });

  it('a near-miss of a naming key is a typo, not a secret', async () => {
    await tmp.write('provcert.config.yaml', 'credentialsEnv: MY_KEY\n');
    expect((await usageError(() => load())).message).toBe(
      'provcert.config.yaml:1: unknown key "credentialsEnv" (did you mean credentialEnv?)',
    );
  });
});
