import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFleetFile } from '../../src/config/fleet.js';
import { UsageError } from '../../src/model/errors.js';
import { scratchDir } from '../support/scratch.js';

let dir: string;
beforeAll(async () => {
  dir = await scratchDir('fleet-config');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function load(name: string, text: string) {
  await writeFile(join(dir, name), text);
  return loadFleetFile(name, dir);
}

/** The UsageError's message and hint as main prints them. */
async function problem(name: string, text: string): Promise<string> {
  const e = await load(name, text).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(UsageError);
  const u = e as UsageError;
  return `${u.message}${u.hint ? `\n  ${u.hint}` : ''}`;
}

const GOOD = `name: food-partners
defaults: { auth: API_KEY, local: true, timeout: 5000 }
providers:
  - slug: north-kitchen
    baseUrl: http://127.0.0.1:4011
    credentialEnv: NORTH_KEY
    webhookSecretEnv: NORTH_WEBHOOK_SECRET
  - slug: south-kitchen
    baseUrl: http://127.0.0.1:4012
    auth: BEARER_TOKEN
    credentialFile: secrets/south
    only: metadata, catalog
expectedFailures:
  - { check: quote-math, provider: south-kitchen, reason: rounding fix in progress, until: 2099-01-01 }
`;

describe('fleet file', () => {
  it('merges defaults into each provider; the entry wins; a credential file is relative to the fleet file', async () => {
    const fleet = await load('good.yaml', GOOD);
    expect(fleet.name).toBe('food-partners');
    expect(fleet.webhookPort).toBe(8787);
    const [north, south] = fleet.providers;
    expect(north?.options).toMatchObject({ auth: 'API_KEY', local: true, timeout: 5000, credentialEnv: 'NORTH_KEY' });
    expect(north?.webhookSecretNamed).toBe(true);
    expect(south?.options).toMatchObject({ auth: 'BEARER_TOKEN', only: ['metadata', 'catalog'] });
    expect(south?.options.credentialFile).toBe(join(dir, 'secrets/south').slice(dir.length + 1));
    expect(south?.webhookSecretNamed).toBe(false);
    expect(fleet.expectedFailures).toHaveLength(1);
    expect(fleet.identity.slugs).toEqual(['north-kitchen', 'south-kitchen']);
    expect(fleet.identity.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same identity whatever the key and provider order, and another for other content', async () => {
    const a = await load('a.yaml', GOOD);
    const reordered = `providers:
  - { slug: south-kitchen, credentialFile: secrets/south, only: [metadata, catalog], auth: BEARER_TOKEN, baseUrl: "http://127.0.0.1:4012" }
  - { webhookSecretEnv: NORTH_WEBHOOK_SECRET, credentialEnv: NORTH_KEY, baseUrl: "http://127.0.0.1:4011", slug: north-kitchen }
webhookPort: 9999
defaults: { timeout: 5000, local: true, auth: API_KEY }
name: food-partners
expectedFailures:
  - { until: 2099-01-01, reason: rounding fix in progress, provider: south-kitchen, check: quote-math }
`;
    const b = await load('b.yaml', reordered);
    expect(b.identity).toEqual(a.identity);
    const c = await load('c.yaml', GOOD.replace('timeout: 5000', 'timeout: 6000'));
    expect(c.identity.digest).not.toBe(a.identity.digest);
  });

  it('reads a waiver naming a requirement alone', async () => {
    const fleet = await load(
      'r.yaml',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\nexpectedFailures:\n  - { requirement: QUOTE-TOTAL-FORMULA, reason: r, until: 2099-01-01 }\n',
    );
    expect(fleet.expectedFailures).toEqual([{ requirement: 'QUOTE-TOTAL-FORMULA', reason: 'r', until: '2099-01-01' }]);
  });

  it.each([
    ['no providers key', 'name: x\n', /^x\.yaml:1: is missing the required key "providers"$/m],
    [
      'a misspelt provider key, with its line',
      'name: x\nproviders:\n  - slug: a\n    baseUrl: http://h\n    timout: 5\n',
      /^x\.yaml:5: \/providers\/0 unknown key "timout" \(did you mean timeout\?\)$/m,
    ],
    [
      'a secret in the file',
      'name: x\nproviders:\n  - slug: a\n    baseUrl: http://h\n    apiKey: abc123\n',
      /^x\.yaml:5: \/providers\/0 key "apiKey" would hold a secret, and secrets never go in the config file/m,
    ],
    [
      'a bad slug',
      'name: x\nproviders:\n  - slug: North_Kitchen\n    baseUrl: http://h\n',
      /^x\.yaml:3: \/providers\/0\/slug must be lowercase letters, digits and dashes, such as north-kitchen \(found string "North_Kitchen"\)$/m,
    ],
    [
      'a value out of range',
      'name: x\nproviders:\n  - slug: a\n    baseUrl: http://h\n    timeout: 5\n',
      /^x\.yaml:5: \/providers\/0\/timeout must be at least 100 \(found integer 5\)$/m,
    ],
    [
      'an unknown check id in defaults',
      'name: x\ndefaults:\n  skip: [quote-maths]\nproviders:\n  - { slug: a, baseUrl: "http://h" }\n',
      /^x\.yaml:3: \/defaults\/skip\/0 must be one of .*\(did you mean quote-math\?\)$/m,
    ],
    [
      'a duplicate slug',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\n  - { slug: a, baseUrl: "http://g" }\n',
      /^x\.yaml:4: \/providers\/1\/slug slug "a" is already used by \/providers\/0/m,
    ],
    [
      'a waiver naming a provider not in the fleet',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\nexpectedFailures:\n  - { check: webhook, provider: b, reason: r, until: 2099-01-01 }\n',
      /^x\.yaml:5: \/expectedFailures\/0\/provider names provider "b", which is not in this fleet \(slugs: a\)$/m,
    ],
    [
      'a waiver with a date that is not a date',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\nexpectedFailures:\n  - check: webhook\n    reason: r\n    until: 2099-02-30\n',
      /^x\.yaml:7: \/expectedFailures\/0\/until must be a date YYYY-MM-DD such as 2026-06-30/m,
    ],
    [
      'a misspelt waiver key',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\nexpectedFailures:\n  - { check: webhook, reason: r, untill: 2099-01-01 }\n',
      /unknown key "untill" \(did you mean until\?\)/,
    ],
    [
      'a waiver naming neither check nor requirement',
      'name: x\nproviders:\n  - { slug: a, baseUrl: "http://h" }\nexpectedFailures:\n  - { reason: r, until: 2099-01-01 }\n',
      /^x\.yaml:5: \/expectedFailures\/0 names neither check nor requirement; set check \(a check id\), requirement, or both$/,
    ],
    ['not a mapping', '- a\n- b\n', /^x\.yaml: must be a mapping with name and providers .*found a list$/],
    ['broken YAML', 'name: [x\n', /^x\.yaml:\d+:\d+: invalid YAML/],
  ])('refuses %s with one clear line', async (_what, text, message) => {
    expect(await problem('x.yaml', text)).toMatch(message);
  });

  it("never echoes a value where a secret's name belongs", async () => {
    const text = await problem(
      's.yaml',
      'name: x\nproviders:\n  - slug: a\n    baseUrl: http://h\n    credentialEnv: sk_live_abcdef\n',
    );
    expect(text).toMatch(/credentialEnv must be the NAME of an environment variable/);
    expect(text).not.toContain('sk_live_abcdef');
  });

  it('lists every problem, one line each', async () => {
    const text = await problem('m.yaml', 'name: x\nproviders:\n  - slug: a\n    timeout: 5\n    strict: maybe\n');
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toMatch(/m\.yaml:3: \/providers\/0 is missing the required key "baseUrl"/);
    expect(text).toMatch(/m\.yaml:4: \/providers\/0\/timeout must be at least 100/);
    expect(text).toMatch(/m\.yaml:5: \/providers\/0\/strict must be boolean/);
  });

  it('reads a JSON fleet file as well', async () => {
    const json = JSON.stringify({ name: 'j', providers: [{ slug: 'a', baseUrl: 'http://h', only: ['metadata'] }] });
    const fleet = await load('fleet.json', json);
    expect(fleet.providers[0]?.options).toMatchObject({ baseUrl: 'http://h', only: ['metadata'] });
  });

  it('accepts the fleet file of examples/', async () => {
    const fleet = await loadFleetFile('examples/fleet/fleet.yaml', join(import.meta.dirname, '../..'));
    expect(fleet.providers.length).toBeGreaterThan(0);
  });

  it('names a missing file', async () => {
    await expect(loadFleetFile('nope.yaml', dir)).rejects.toThrow('fleet file nope.yaml not found');
  });
});
