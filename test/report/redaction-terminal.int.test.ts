import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { doctorReport, renderDoctorJson, renderDoctorText } from '../../src/doctor/render.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { jsonTerminalSafe, sanitizeTerminalText } from '../../src/util/terminal.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';
import { passingReport } from './sample-reports.js';
import { storedReport } from './stored-report.js';

/** What a provider can send to take over a terminal: clear screen, set the title (OSC), bell, overwrite the line, reverse the text. */
const HOSTILE = 'ok\u001b[2J\u001b]0;pwned\u0007\r\u202eevil\u009b31m';
/** Characters no output may contain raw (newline and tab are fine). */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

describe('sanitizeTerminalText: controls are shown escaped, never interpreted', () => {
  it.each([
    ['ESC (CSI clear screen)', 'a\u001b[2Jb', 'a\\x1b[2Jb'],
    ['BEL', 'a\u0007b', 'a\\x07b'],
    ['CR (overwrite the line)', 'fail\rpass', 'fail\\x0dpass'],
    ['OSC (set window title)', '\u001b]0;pwned\u0007', '\\x1b]0;pwned\\x07'],
    ['C1 CSI', 'a\u009b31m', 'a\\x9b31m'],
    ['U+202E right-to-left override', 'abc\u202Efed', 'abc\\u202efed'],
    ['U+2066 isolate', 'a\u2066b', 'a\\u2066b'],
    ['newline and tab kept', 'a\n\tb', 'a\n\tb'],
    ['plain text unchanged', 'GET /catalog → 200 ✓', 'GET /catalog → 200 ✓'],
  ])('%s', (_name, input, shown) => {
    expect(sanitizeTerminalText(input)).toBe(shown);
  });

  it('oneLine also escapes newlines', () => {
    expect(sanitizeTerminalText('a\nb', { oneLine: true })).toBe('a\\x0ab');
  });

  it('JSON output escapes bidi and C1 controls and keeps the same value', () => {
    const value = { message: HOSTILE };
    const text = jsonTerminalSafe(JSON.stringify(value));
    expect(text).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('every printed output passes the sanitizer', () => {
  it('console reporter', () => {
    const stream = new PassThrough();
    let out = '';
    stream.on('data', (c: Buffer) => (out += c.toString()));
    const reporter = createConsoleReporter({ stream, color: false, interactive: false });
    const result: CheckResult = {
      id: 'health',
      title: HOSTILE,
      rule: 'r',
      status: 'fail',
      message: HOSTILE,
      details: [HOSTILE],
      warnings: [HOSTILE],
      expected: HOSTILE,
      actual: { note: HOSTILE },
      durationMs: 1,
      evidence: [],
      requirements: ['ROUTE-HEALTH'],
      findings: [{ severity: 'warn', requirement: 'ROUTE-HEALTH', message: HOSTILE }],
    };
    reporter.onRunStart({ baseUrl: HOSTILE, webhookUrl: HOSTILE, profile: 'TRANSACTIONAL', checks: 1 });
    reporter.onCheckEnd(result);
    expect(out).toContain('ok\\x1b[2J\\x1b]0;pwned\\x07\\x0d\\u202eevil\\x9b31m');
    expect(out).not.toMatch(RAW_CONTROL);
  });

  it('doctor text and JSON', () => {
    const report = doctorReport('https://provider.example/api', 'API_KEY', [
      { id: 'routes', status: 'fail', title: 'Routes', detail: HOSTILE, fix: HOSTILE },
    ]);
    expect(renderDoctorText(report, { color: false })).toContain('\\x1b]0;pwned\\x07');
    expect(renderDoctorText(report, { color: false })).not.toMatch(RAW_CONTROL);
    expect(renderDoctorJson(report)).not.toMatch(RAW_CONTROL);
  });

  it('replay: the report file and the provider answer both shown escaped, secrets masked', async () => {
    const credential = 'replay-credential-5d1f9a7c';
    // The rerun's schema message quotes the provider's answer.
    const server: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(`${HOSTILE} ${credential}`)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const dir = await scratchDir('replay-hostile');
      // A whole report (replay validates it against spec/report.schema.json) with one hostile failure.
      const sample = passingReport();
      const report = storedReport({
        ...sample,
        provider: { ...sample.provider, baseUrl, authMethod: 'API_KEY' },
        verdict: 'FAIL',
        summary: { pass: 0, fail: 1, skip: 0, error: 0 },
        checks: [
          {
            ...sample.checks[1],
            id: 'metadata',
            status: 'fail',
            message: `${HOSTILE} ${credential}`,
            // A failure records its failing finding (a status follows from its findings).
            findings: [{ severity: 'fail', requirement: 'ROUTE-PROVIDER-INFO', message: `${HOSTILE} ${credential}` }],
          },
        ],
        inputs: {
          baseUrl,
          authMethod: 'API_KEY',
          credentialSource: { kind: 'env', name: 'PROVIDER_API_KEY' },
          local: true,
          webhookHost: '127.0.0.1',
          webhookPort: 0,
          timeoutMs: 2000,
          seed: 'hostile',
        },
      } as RunReport);
      await writeFile(join(dir, 'report.json'), JSON.stringify(report));
      const { io, out } = captureIo(dir, {
        PROVIDER_API_KEY: credential,
        SERVICE_WEBHOOK_SECRET: 'replay-webhook-secret-3e8b',
      });
      await runCommand(io, ['replay', 'report.json', '--base-url', baseUrl, '--auth', 'API_KEY']);
      const text = out();
      expect(text).toContain('metadata');
      expect(text).toContain('\\x1b]0;pwned\\x07');
      expect(text).not.toMatch(RAW_CONTROL);
      expect(text).not.toContain(credential);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
