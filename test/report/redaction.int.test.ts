import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import type { RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { RENDERING_REPORTER_NAMES, REPORTERS } from '../../src/report/reporters.js';
import { runCertification } from '../../src/runner/run.js';
import { testConfig } from '../support/certify.js';
import {
  type HostileProvider,
  secretEncodings,
  shareShown,
  startHostileProvider,
} from '../support/hostile-provider.js';

const CREDENTIAL = 'sk_live_9f8e7d6c5b4a3f2e1d0c';
// Space, quote, slash, plus and equals: its JSON, URL and form encodings all differ from it.
const WEBHOOK_SECRET = 'whsec/Abc+123=xyz "very-long" secret-0042';
const SECRETS = { credential: CREDENTIAL, 'webhook secret': WEBHOOK_SECRET };

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** What a reader (or a tool) gets back from each format's escaping, so an escaped secret still counts. */
const decodeEntities = (text: string): string =>
  text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function jsonStrings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) jsonStrings(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) jsonStrings(v, into.concat(k));
  return into;
}

const READINGS: Record<string, (text: string) => string[]> = {
  console: (text) => [text],
  json: (text) => [text, ...jsonStrings(JSON.parse(text))],
  junit: (text) => [text, decodeEntities(text)],
  html: (text) => [text, decodeEntities(text)],
  markdown: (text) => [text, decodeEntities(text)],
  github: (text) => [
    text,
    text.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%'),
  ],
};

let provider: HostileProvider;
let outputs: Record<string, string>;
let report: RunReport;

beforeAll(async () => {
  provider = await startHostileProvider([CREDENTIAL, WEBHOOK_SECRET]);
  const screen = new Capture();
  const consoleReporter = createConsoleReporter({ stream: screen, color: false, interactive: false });
  report = await runCertification(testConfig(provider.url), {
    contract: await loadContract(),
    credential: CREDENTIAL,
    webhookSecret: WEBHOOK_SECRET,
    hooks: consoleReporter,
  });
  consoleReporter.onRunEnd(report);
  outputs = {
    console: screen.text,
    ...Object.fromEntries(RENDERING_REPORTER_NAMES.map((name) => [name, REPORTERS[name].render(report)])),
  };
});
afterAll(() => provider.close());

describe('a provider echoing the secrets back: no output shows them, in any form', () => {
  it('the run really met the echoes (the provider answered and checks failed on its answers)', () => {
    expect(report.checks.some((c) => c.status === 'fail' && c.evidence.some((e) => e.response))).toBe(true);
    // The masks stand where the echoes were: in messages and in evidence.
    expect(outputs['json']).toContain('****');
    expect(outputs['console']).toMatch(/content-type text\/plain; charset=\*\*\*\*/);
    expect(outputs['console']).toMatch(/found string "\*\*\*\*"/);
  });

  const cases = Object.keys(READINGS).flatMap((format) =>
    Object.entries(SECRETS).flatMap(([which, secret]) =>
      Object.entries(secretEncodings(secret)).map(([form, leak]) => [format, which, form, leak] as const),
    ),
  );

  // Issue 32: not even in pieces a reader could lay side by side (overlapping, iterated encodings: secretEncodings).
  it.each(
    Object.keys(READINGS).flatMap((format) =>
      Object.entries(SECRETS).map(([which, secret]) => [format, which, secret]),
    ),
  )('%s output: less than half of the %s shows, however its pieces are put together', (format, _which, secret) => {
    for (const reading of READINGS[format]?.(outputs[format] ?? '') ?? [])
      expect(shareShown(reading, secret ?? '')).toBeLessThan(0.5);
  });

  it.each(cases)('%s output: no %s (%s)', (format, _which, _form, leak) => {
    const output = outputs[format] ?? '';
    expect(output.length).toBeGreaterThan(0);
    for (const reading of READINGS[format]?.(output) ?? []) expect(reading).not.toContain(leak);
  });
});
