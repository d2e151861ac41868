import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certify, contractMatchers, schemaNames, UsageError, validate } from '../../src/lib/index.js';
import { startReferenceProvider } from '../../src/reference-provider/index.js';
import { captureIo, runCommand } from '../support/cli-io.js';

const ROOT = join(import.meta.dirname, '../..');
const INVALID = join(ROOT, 'fixtures/payloads/Catalog/invalid-basePrice-string.json');

describe('validate() from the library', () => {
  it('explains problems in the very words the CLI prints', async () => {
    const { io, out } = captureIo(ROOT);
    expect(await runCommand(io, ['validate', 'Catalog', INVALID])).toBe(1);
    const cliLines = out()
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.trim());
    const result = validate('Catalog', JSON.parse(await readFile(INVALID, 'utf8')) as unknown);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.text)).toEqual(cliLines);
    expect(cliLines.length).toBeGreaterThan(0);
  });

  it('accepts what the contract allows and reports its warnings without failing', () => {
    const result = validate('HealthCheckResult', { status: 'HEALTHY', latencyMs: 3, timestamp: '2026-11-23T12:00:00' });
    expect(result).toMatchObject({ valid: true, errors: [] });
    expect(result.warnings.map((w) => w.rule)).toEqual(['offsetless-timestamp']);
  });

  it('knows every schema the CLI knows, and names the nearest for a typo', async () => {
    const { io, out } = captureIo(ROOT);
    await runCommand(io, ['validate', '--list']);
    expect(schemaNames()).toEqual(out().trim().split('\n'));
    expect(() => validate('Catalogue' as 'Catalog', {})).toThrow(
      /unknown schema "Catalogue" \(did you mean Catalog\?\)/,
    );
  });
});

describe('contractMatchers.toMatchContract', () => {
  const { toMatchContract } = contractMatchers;

  it('passes a conforming body, with a message for .not', () => {
    const result = toMatchContract(
      { status: 'HEALTHY', latencyMs: 1, timestamp: '2026-11-23T12:00:00Z' },
      'HealthCheckResult',
    );
    expect(result.pass).toBe(true);
    expect(result.message()).toBe("expected the value not to match the contract's HealthCheckResult, but it does");
  });

  it('fails a broken body listing each explained problem', () => {
    const result = toMatchContract({ status: 'HEALTHY' }, 'HealthCheckResult');
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      [
        "expected the value to match the contract's HealthCheckResult; 2 problems:",
        '  - (root) is missing required field "latencyMs"',
        '  - (root) is missing required field "timestamp"',
      ].join('\n'),
    );
  });

  it('fails on an unknown schema name instead of throwing inside the runner', () => {
    const result = toMatchContract({}, 'Quote' as 'Catalog');
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(
      /^provcert: unknown schema "Quote" .*; the contract's schemas: ActionItem, ActionLine, /,
    );
  });
});

describe('certify() from the library', () => {
  const options = { auth: 'API_KEY', credential: 'lib-key', webhookSecret: 'lib-secret', local: true } as const;

  it.each([
    [{ baseUrl: 'not a url' }, /baseUrl "not a url" is not an absolute URL/],
    [{ baseUrl: 'http://127.0.0.1:1', auth: 'BASIC' }, /auth must be one of API_KEY, BEARER_TOKEN, HMAC_SIGNATURE/],
    [{ baseUrl: 'http://127.0.0.1:1', credential: '' }, /credential must be a non-empty string/],
    [{ baseUrl: 'http://127.0.0.1:1', only: ['quote-maths'] }, /unknown check id quote-maths/],
  ])('refuses unusable options with a UsageError: %o', async (bad, message) => {
    const call = certify({ ...options, ...bad } as Parameters<typeof certify>[0]);
    await expect(call).rejects.toBeInstanceOf(UsageError);
    await expect(call).rejects.toThrow(message);
  });

  it('returns the run report of a provider broken for one rule, with that check failed', async () => {
    const provider = await startReferenceProvider({
      authMethod: 'API_KEY',
      credential: options.credential,
      webhookSecret: options.webhookSecret,
      faults: ['health-unhealthy-shape'],
    });
    try {
      const ended: string[] = [];
      const report = await certify({
        ...options,
        baseUrl: provider.url,
        webhookPort: 0,
        only: ['health'],
        onCheckEnd: (result) => ended.push(result.id),
      });
      expect(report.verdict).toBe('FAIL');
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([
        ['health', 'fail'],
        ['signature', 'skip'],
      ]);
      expect(ended).toContain('health');
      expect(JSON.stringify(report)).not.toContain(options.credential);
    } finally {
      await provider.close();
    }
  });
});
