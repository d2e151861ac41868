import { describe, expect, it } from 'vitest';
import { type AddressRules, judgeBaseAddress } from '../../src/http/base-address.js';
import { isLoopbackHost, nonPublicHostReason } from '../../src/http/host.js';
import { spellAsConfigKey as spell } from '../../src/model/setting-speller.js';

describe('nonPublicHostReason', () => {
  it.each<[string, RegExp | undefined]>([
    ['api.example.com', undefined],
    ['8.8.8.8', undefined],
    ['172.32.0.1', undefined],
    ['localhost', /localhost/],
    ['app.localhost', /localhost/],
    ['printer.local', /\.local/],
    ['127.0.0.1', /loopback/],
    ['127.9.9.9', /loopback/],
    ['10.1.2.3', /10\.0\.0\.0\/8/],
    ['172.16.0.1', /172\.16\.0\.0\/12/],
    ['172.31.255.255', /172\.16\.0\.0\/12/],
    ['192.168.1.10', /192\.168/],
    ['169.254.169.254', /link-local/],
    ['[::1]', /loopback/],
    ['::1', /loopback/],
    ['fd12:3456::1', /fc00::\/7/],
    ['fc00::1', /fc00::\/7/],
    ['fe80::1', /link-local/],
    ['::ffff:10.0.0.1', /10\.0\.0\.0\/8/],
    ['2001:db8::1', undefined],
    ['intranet', /single-label/],
  ])('%s', (host, reason) => {
    const found = nonPublicHostReason(host);
    if (reason === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(reason);
  });
});

describe("isLoopbackHost (a provider that shares provcert's clock)", () => {
  it.each<[string, boolean]>([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['10.1.2.3', false],
    ['192.168.1.10', false],
    ['api.example.com', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('judgeBaseAddress', () => {
  const hosted = { local: false, spell };
  const local = { local: true, spell };
  const RECEIVER = [{ what: "provcert's own webhook receiver", url: 'http://127.0.0.1:8787/api/v1/webhooks/provider' }];
  it.each<[string, AddressRules, RegExp[], RegExp[]]>([
    ['https://api.example.com/provider', hosted, [], []],
    ['http://api.example.com', hosted, [/uses http:\/\/; a provider base address must be public HTTPS/], []],
    ['https://127.0.0.1:8443', hosted, [/loopback .*must be public/], []],
    ['http://127.0.0.1:3000', local, [], [/hosted certification needs a public HTTPS address/, /loopback/]],
    [
      'https://api.example.com/v1/health',
      hosted,
      [/ends with \/health; enter the API root \(e\.g\. https:\/\/api\.example\.com\/v1\)/],
      [],
    ],
    ['https://api.example.com/health/', hosted, [/ends with \/health/], []],
    ['http://127.0.0.1:3000/health', local, [/ends with \/health/], [/http/, /loopback/]],
    // A provider's own API may live under /api/v1 (issue 24 item 1): only the service's address is refused.
    ['https://api.example.com/api/v1', hosted, [], []],
    ['https://shop.example.com/api/v1/provider', hosted, [], []],
    ['http://127.0.0.1:3000/api/v1', local, [], [/http/, /loopback/]],
    ['http://127.0.0.1:8787/api/v1', { ...local, service: RECEIVER }, [/webhook receiver/], [/http/, /loopback/]],
    ['http://127.0.0.1:8787', { ...local, service: RECEIVER }, [/webhook receiver/], [/http/, /loopback/]],
    ['http://localhost:8787', { ...local, service: RECEIVER }, [/webhook receiver/], [/http/, /localhost/]],
    ['ftp://api.example.com', hosted, [/uses ftp; expected https/], []],
    ['api.example.com', hosted, [/not an absolute URL/], []],
  ])('%s', (url, rules, problems, warnings) => {
    const verdict = judgeBaseAddress(url, rules);
    expect(verdict.problems).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(verdict.problems[i]?.text).toMatch(p));
    expect(verdict.warnings).toHaveLength(warnings.length);
    warnings.forEach((w, i) => expect(verdict.warnings[i]?.text).toMatch(w));
  });
});

describe('the advice names the local setting as the caller spells it', () => {
  it.each<[string, boolean, RegExp]>([
    ['http://api.example.com', false, /use <local> only for a local self-test/],
    ['https://10.0.0.5', false, /use <local> only for a local self-test/],
    ['http://api.example.com', true, /allowed by <local>/],
    ['https://10.0.0.5', true, /allowed by <local>/],
  ])('%s (local %s)', (url, isLocal, advice) => {
    const verdict = judgeBaseAddress(url, { local: isLocal, spell: (setting) => `<${setting}>` });
    expect([...verdict.problems, ...verdict.warnings].map((f) => f.text).join('\n')).toMatch(advice);
  });
});

describe('each finding names its rule and the part of the URL; the verdict, the corrected base URL', () => {
  it.each<[string, boolean, [string, string][], string | undefined]>([
    ['http://api.example.com/v1/', false, [['https', 'scheme']], 'https://api.example.com/v1'],
    // In a local self-test http is no problem, so the correction keeps it.
    [
      'http://127.0.0.1:3000/v1/health',
      true,
      [
        ['https', 'scheme'],
        ['public-host', 'host'],
        ['no-health-suffix', 'path'],
      ],
      'http://127.0.0.1:3000/v1',
    ],
    [
      'http://api.example.com/health',
      false,
      [
        ['https', 'scheme'],
        ['no-health-suffix', 'path'],
      ],
      'https://api.example.com',
    ],
    ['https://10.0.0.5/api', false, [['public-host', 'host']], 'https://10.0.0.5/api'],
    ['https://api.example.com/v1/health/', false, [['no-health-suffix', 'path']], 'https://api.example.com/v1'],
    ['https://api.example.com/v1/?debug=1#top', false, [['no-query', 'query']], 'https://api.example.com/v1'],
    ['ftp://api.example.com/v1', false, [['web-scheme', 'scheme']], 'https://api.example.com/v1'],
    [
      'https://user:pw@api.example.com/health?x=1',
      false,
      [
        ['no-health-suffix', 'path'],
        ['no-query', 'query'],
      ],
      'https://api.example.com',
    ],
    ['api.example.com', false, [['absolute-url', 'url']], undefined],
  ])('%s (local %s)', (url, isLocal, broken, corrected) => {
    const verdict = judgeBaseAddress(url, { local: isLocal, spell });
    const found = [...verdict.problems, ...verdict.warnings].map((f) => [f.rule, f.part]);
    expect(found.sort()).toEqual([...broken].sort());
    expect(verdict.correctedBaseUrl).toBe(corrected);
  });
});
