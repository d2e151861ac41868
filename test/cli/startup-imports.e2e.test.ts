import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { packagesLoadedBy } from '../support/loaded-packages.js';
import { startReferenceForRun } from '../support/reference-run.js';
import { scratchDir } from '../support/scratch.js';
import { repo } from './packed-provcert.js';

const CREDENTIAL = 'startup-key-7c2d';
const WEBHOOK_SECRET = 'startup-secret-e41b';

// fast-check (and pure-rand, its generator) are quote-explore's: only a run that explores may load them. ajv's
// compiler and yaml are the run-time spec compiler's: commands that only describe themselves load neither.
const EXPLORING = ['fast-check', 'pure-rand'];
const COMPILING = ['ajv', 'yaml'];

describe.concurrent('what a command loads at start-up', () => {
  let provider: RunningProvider | undefined;
  afterAll(async () => {
    await provider?.close();
  });

  it.each([[['list']], [['list', '--json']], [['--help']], [['run', '--help']], [['replay', '--help']]])(
    'provcert %j loads no fast-check, no ajv compiler and no yaml',
    async (args) => {
      const { result, packages } = await packagesLoadedBy(args);
      expect(result.code).toBe(0);
      // The recorder saw the command's own packages, so an empty answer is not what passes here.
      expect(packages).toContain('commander');
      expect(packages.filter((name) => [...EXPLORING, ...COMPILING].includes(name))).toEqual([]);
    },
  );

  // The JSON readers (a payload, a report) parse with JSON.parse: the YAML parser loads only for a YAML text. The
  // --spec copy differs from the bundled spec by a comment, so it is parsed rather than matched to the precompiled one.
  it('provcert validate of a JSON payload loads no yaml; with a --spec of its own (YAML) it does', async () => {
    const dir = await scratchDir('startup-validate');
    const payload = join(dir, 'health.json');
    await writeFile(payload, JSON.stringify({ status: 'ok', timestamp: '2026-01-01T00:00:00Z', latencyMs: 1 }));
    const json = await packagesLoadedBy(['validate', 'HealthCheckResult', payload]);
    expect(json.result.code, json.result.stderr).toBe(0);
    expect(json.packages).toContain('commander');
    expect(json.packages).not.toContain('yaml');
    const spec = join(dir, 'openapi.yaml');
    await writeFile(spec, `# a copy\n${await readFile(join(repo, 'spec/openapi.yaml'), 'utf8')}`);
    const own = await packagesLoadedBy(['validate', 'HealthCheckResult', payload, '--spec', spec]);
    expect(own.result.code, own.result.stderr).toBe(0);
    expect(own.packages).toContain('yaml');
  });

  it('a run that executes quote-explore loads fast-check (the recorder sees it when it is loaded)', async () => {
    const started = await startReferenceForRun({ credential: CREDENTIAL, webhookSecret: WEBHOOK_SECRET });
    provider = started.provider;
    const { result, packages } = await packagesLoadedBy(
      [
        'run',
        '--base-url',
        provider.url,
        '--auth',
        'API_KEY',
        '--local',
        '--webhook-port',
        String(started.webhookPort),
        '--only',
        'quote-explore',
        '--explore',
        '2',
      ],
      { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    );
    expect(result.stdout).toMatch(/quote-explore/);
    expect(packages).toContain('fast-check');
  });
});
