import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../src/reference-provider/index.js';
import { certifyThroughProxy } from '../support/certify.js';
import type { ProxyRule } from '../support/rewriting-proxy.js';

/**
 * A one-item selection still has its dropped-item row probed (issue 33, mutation bench hole): the check quotes the
 * selection with one more available offering and sends the action without it. The conforming provider, whose
 * manifest.certificationInput a proxy cuts to its first item, refuses it and passes.
 */

interface Sent {
  path: string;
  items: { offeringId?: string }[];
}

async function bindingOnOneItem(faults: FaultName[] = []) {
  const sent: Sent[] = [];
  const rule: ProxyRule = ({ method, path, body }) => {
    if (method === 'POST' && (path === '/quote' || path === '/actions')) {
      const parsed = JSON.parse(body) as { items?: Sent['items'] };
      sent.push({ path, items: parsed.items ?? [] });
    }
    if (method !== 'GET' || !path.startsWith('/provider-info')) return undefined;
    return {
      rewrite: (json) => {
        const info = json as { manifest: { certificationInput: { items: unknown[] } } };
        const input = info.manifest.certificationInput;
        return {
          ...info,
          manifest: { ...info.manifest, certificationInput: { ...input, items: input.items.slice(0, 1) } },
        };
      },
    };
  };
  const { report } = await certifyThroughProxy({ only: ['quote-binding'], faults, quoteTtlSeconds: 5 }, { rule });
  const result = report.checks.find((c) => c.id === 'quote-binding');
  return { result, sent };
}

describe('quote-binding on a one-item selection', () => {
  it('probes a dropped item on a two-item quote, and the conforming provider passes', async () => {
    const { result, sent } = await bindingOnOneItem();
    expect(result?.status, JSON.stringify(result?.findings)).toBe('pass');
    expect(result?.message).toMatch(/refused a changed .*dropped-item/);
    expect(result?.warnings ?? []).not.toContainEqual(expect.stringMatching(/dropped-item probe is skipped/));
    const quotes = sent.filter((s) => s.path === '/quote');
    const [only] = quotes[0]?.items ?? [];
    const twoItems = quotes.find((q) => q.items.length === 2 && q.items[0]?.offeringId === only?.offeringId);
    expect(twoItems, JSON.stringify(quotes)).toBeDefined();
    expect(sent.filter((s) => s.path === '/actions').some((a) => a.items.length === 1)).toBe(true);
  });

  it('fails a provider that accepts the action without the added quoted item, citing QUOTE-BINDING', async () => {
    const { result } = await bindingOnOneItem(['quote-binding-dropped-item-ignored']);
    expect(result?.status).toBe('fail');
    expect(result?.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement)).toEqual(['QUOTE-BINDING']);
    expect(result?.message).toMatch(/without the quoted item off-\w+ \(quoted beside the selection's one item\)/);
  });
});
