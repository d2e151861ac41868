import { describe, expect, it } from 'vitest';
import { isOwnEvent } from '../../src/checks/webhook.js';
import type { ReceivedWebhook } from '../../src/model/webhooks.js';
import { webhookSection } from '../../src/runner/webhook-section.js';

const SLUG = 'demo-kitchen';
const ACTIONS = [{ id: 'act-1', publicId: 'PUB-1', cancelled: false }];

let seq = 0;
const received = (fields: Partial<ReceivedWebhook>): ReceivedWebhook => ({
  seq: ++seq,
  receivedAt: '2026-01-01T00:00:00Z',
  slug: SLUG,
  headers: {},
  rawBody: '',
  verified: false,
  answeredStatus: 401,
  duplicate: false,
  ...fields,
});
const about = (actionId: string, providerSlug = SLUG) => ({ event: { actionId, providerSlug } });

/** docs/decisions.md, "Whose webhook is it": which received requests are the provider's own. */
const cases: [string, Partial<ReceivedWebhook>, boolean][] = [
  ['verified with its secret', { verified: true, answeredStatus: 200, attributedTo: SLUG }, true],
  ['verified, then refused by the schema', { verified: true, answeredStatus: 400, attributedTo: SLUG }, true],
  ['made with its secret, a fixable mistake (attributed by the diagnosis)', { attributedTo: SLUG }, true],
  [
    "another provider's verified event on the legacy route",
    { slug: null, attributedTo: 'other', ...about('act-1') },
    false,
  ],
  ['unverified, naming a test action by id', about('act-1'), true],
  ['unverified, naming a test action by publicId', about('PUB-1'), true],
  ['unverified on the legacy route, naming it and a test action', { slug: null, ...about('act-1') }, true],
  ['unverified, naming an action the run never created', about('act-guessed'), false],
  ['unsigned and unparsed (413, 401 on junk)', { answeredStatus: 413 }, false],
  ['unverified on another route', { slug: 'other', ...about('act-1', 'other') }, false],
  [
    'restored from an earlier server process',
    { verified: true, answeredStatus: 200, attributedTo: SLUG, restored: true },
    false,
  ],
];

describe('whose webhook is it', () => {
  it.each(cases)('%s → own: %s', (_name, fields, own) => {
    expect(isOwnEvent(received(fields), SLUG, ACTIONS)).toBe(own);
  });

  it('the report keeps the own requests as the timeline and counts the noise on its route by status', () => {
    const all = cases.map(([, fields]) => received(fields));
    const section = webhookSection(
      {
        urlFor: (s) => `http://core/${s}`,
        all: () => all,
        waitFor: async () => undefined,
        subscribe: () => () => undefined,
      },
      SLUG,
      ACTIONS,
    );
    expect(section.events).toHaveLength(cases.filter(([, , own]) => own).length);
    // Noise is unattributed and on its route: the guessed action and the 413; not another route, not restored.
    expect(section.ignored).toEqual({ count: 2, byStatus: { '401': 1, '413': 1 } });
    expect(section.url).toBe(`http://core/${SLUG}`);
  });
});
