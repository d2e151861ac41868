import { describe, expect, it } from 'vitest';
import { probeCredential } from '../../src/checks/support/probe-credential.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { hmacHex } from '../../src/util/hmac.js';
import { type CertifyOptions, certify, certifyThroughProxy, TEST_CREDENTIAL } from '../support/certify.js';
import { overlappingPieces, shareShown } from '../support/hostile-provider.js';
import type { ProxyRule } from '../support/rewriting-proxy.js';

/**
 * Issue 24, Reclassify: the provider side of PAYMENT-CLICK-NOT-PROOF (checkout-click) and of
 * SECRETS-KEPT-OUT-OF-LOGS (credential-echo), end to end against the reference provider, and through a
 * rewriting proxy for the cases where the contract is open.
 */

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

const CLICK: CheckId[] = ['payment-pending', 'checkout-click'];

const certifyThrough = (rule: (proxyUrl: string) => ProxyRule, options: CertifyOptions) =>
  certifyThroughProxy(options, { rule: (request, proxyUrl) => rule(proxyUrl)(request) });

/** Rewrites a created action's checkout link to go through the proxy (the link stays on the base address host). */
const linkThroughProxy =
  (proxyUrl: string) =>
  (json: unknown): unknown => {
    const action = json as { nextAction?: { url?: string } };
    if (typeof action.nextAction?.url !== 'string') return json;
    const url = new URL(action.nextAction.url);
    return { ...action, nextAction: { ...action.nextAction, url: `${proxyUrl}${url.pathname}` } };
  };

describe('checkout-click: opening the checkout link is not proof of payment', () => {
  it('passes on the conforming provider, having opened its checkout page once, without a credential', async () => {
    const { report, provider } = await certify({ only: CLICK });
    const r = result(report, 'checkout-click');
    expect(r.status, r.message).toBe('pass');
    expect(r.message).toMatch(
      /^opened the checkout link of action DK-\d+ \(GET http:\/\/127\.0\.0\.1:\d+\/checkout\/act_[\w-]+ answered HTTP 200\) without paying; 2000 ms later GET reports status AWAITING_PAYMENT, paymentStatus PENDING: the click was not taken as payment$/,
    );
    expect(provider.requests.filter((q) => q.path.startsWith('/checkout/'))).toHaveLength(1);
    const click = r.evidence.find((e) => e.request.url.includes('/checkout/'));
    expect(click?.request.auth).toBe('none');
    expect(Object.keys(click?.request.headers ?? {})).not.toContain('x-provider-api-key');
  });

  it('skips, opening nothing, when the link is on another host than the base address (a payment page elsewhere)', async () => {
    // Through the proxy, the provider's link names its own address: another port than the base address.
    const { report, provider } = await certifyThrough(() => () => undefined, { only: CLICK });
    const r = result(report, 'checkout-click');
    expect(r.status, r.message).toBe('skip');
    expect(r.message).toMatch(
      /^the checkout link was not opened, so a click was not tested: not opened: the link http:\/\/127\.0\.0\.1:\d+\/checkout\/\S+ is on 127\.0\.0\.1:\d+, not on the base address's host 127\.0\.0\.1:\d+/,
    );
    expect(provider.requests.filter((q) => q.path.startsWith('/checkout/'))).toEqual([]);
    expect(result(report, 'payment-pending').status).toBe('pass');
  });

  it('warns, never fails, when the order moved on after the click but payment is still pending', async () => {
    const { report } = await certifyThrough(
      (proxyUrl) =>
        ({ method, path }) => {
          if (method === 'POST' && path === '/actions') return { rewrite: linkThroughProxy(proxyUrl) };
          if (method === 'GET' && /^\/actions\/[^/]+$/.test(path))
            return { rewrite: (json) => ({ ...(json as object), status: 'CONFIRMED' }) };
          return undefined;
        },
      { only: CLICK },
    );
    const r = result(report, 'checkout-click');
    expect(r.status, r.message).toBe('pass');
    expect(r.warnings).toEqual([
      expect.stringMatching(
        /^after opening the checkout link of action DK-\d+ .*\), GET http:\/\/127\.0\.0\.1:\d+\/actions\/act_[\w-]+ reports status CONFIRMED with paymentStatus PENDING; a click on the link is not proof of payment/,
      ),
    ]);
  });

  it('fails when the click marks the action paid (fault payment-paid-on-click), citing PAYMENT-CLICK-NOT-PROOF', async () => {
    const { report } = await certify({ only: CLICK, faults: ['payment-paid-on-click'] });
    const r = result(report, 'checkout-click');
    expect(r.status).toBe('fail');
    expect(r.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement)).toEqual([
      'PAYMENT-CLICK-NOT-PROOF',
    ]);
    // The shared pending action was not clicked: payment-pending still passes.
    expect(result(report, 'payment-pending').status).toBe('pass');
  });
});

/** Every form of a value a report must never show. */
const forms = (value: string): string[] => [
  value,
  Buffer.from(value).toString('base64'),
  Buffer.from(value).toString('hex'),
  encodeURIComponent(value),
];

describe('credential-echo: error answers do not repeat the credential', () => {
  it.each<AuthMethod>(['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'])(
    'fails a provider whose error answers repeat it (%s); the report says where and never shows the value',
    async (authMethod) => {
      const { report } = await certify({ only: ['credential-echo'], authMethod, faults: ['error-echoes-credential'] });
      const r = result(report, 'credential-echo');
      expect(r.status).toBe('fail');
      const header = {
        API_KEY: 'x-provider-api-key',
        BEARER_TOKEN: 'authorization',
        HMAC_SIGNATURE: 'x-service-signature',
      }[authMethod];
      expect(r.message).toContain(
        `the answer (HTTP 401) to GET /catalog with a wrong credential repeats the credential or authentication header value it was sent, in body at $.debug.receivedHeaders.${header}`,
      );
      // The malformed request carried the run's own credential: repeating it fails too.
      expect(r.details?.join('\n')).toMatch(/POST \/quote with a malformed JSON body repeats/);
      expect(r.findings.every((f) => f.requirement === 'SECRETS-KEPT-OUT-OF-LOGS')).toBe(true);
      const probe = probeCredential('test');
      const secrets = [probe, TEST_CREDENTIAL];
      if (authMethod === 'HMAC_SIGNATURE') secrets.push(hmacHex(probe, ''), hmacHex(TEST_CREDENTIAL, ''));
      const outputs = [JSON.stringify(report), renderMarkdown(report)];
      for (const output of outputs)
        for (const secret of secrets) for (const form of forms(secret)) expect(output).not.toContain(form);
      // The evidence shows the repeated headers, masked, and no signature sent with any request.
      const bodies = r.evidence.map((e) => e.response?.body ?? '').join('\n');
      expect(bodies).toContain(
        `"debug":{"receivedHeaders":{"${header}":"${authMethod === 'BEARER_TOKEN' ? 'Bearer ' : ''}****"}}`,
      );
      expect(bodies).not.toMatch(/[0-9a-f]{64}/i);
    },
  );
});

describe('credential-echo: an echo in pieces (issue 32)', () => {
  it('fails a provider whose error answer repeats the credential in overlapping pieces, each under half of it', async () => {
    const pieces = overlappingPieces(TEST_CREDENTIAL, Math.ceil(TEST_CREDENTIAL.length / 2) - 1, 3);
    const { report } = await certifyThrough(
      () => (request) =>
        request.path.startsWith('/offerings/provcert-unknown')
          ? { answer: { status: 404, json: { code: 'NOT_FOUND', message: 'no such offering', tried: pieces } } }
          : undefined,
      { only: ['credential-echo'] },
    );
    const r = result(report, 'credential-echo');
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(
      /^the answer \(HTTP 404\) to GET \/offerings\/provcert-unknown-.* repeats the credential or authentication header value it was sent, in body at \$\.tried\[/,
    );
    expect(r.findings.every((f) => f.requirement === 'SECRETS-KEPT-OUT-OF-LOGS')).toBe(true);
    for (const output of [JSON.stringify(report), renderMarkdown(report)])
      expect(shareShown(output, TEST_CREDENTIAL)).toBeLessThan(0.5);
  });
});
