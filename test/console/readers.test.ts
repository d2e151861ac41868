import { describe, expect, it } from 'vitest';
import {
  answerAs,
  certificationRows,
  eventRow,
  history,
  providerRow,
  registrationFields,
  rotationShown,
  visibleReason,
} from '../../src/console/data.js';
import type { RotationView } from '../../src/server/core-routes/rotation-handlers.js';
import type { EventView, HistoryEntryView, ProviderView } from '../../src/server/core-routes/views.js';

/**
 * The console's readers name the fields of the core API's answers through the server's views of the generated
 * contract types: a field the schema does not have is a type error (the @ts-expect-error lines below fail
 * `npm run typecheck` the day the schema gains that field or the readers lose the typing), while the values stay
 * untrusted JSON the readers tolerate missing or mistyped.
 */

describe('a reader names only the fields of its contract type', () => {
  it('reads a field the schema has and cannot name one it lacks', () => {
    const provider = answerAs<ProviderView>({ name: 'Demo', certified: true, lastCertification: {} });
    expect(provider.name).toBe('Demo');
    // @ts-expect-error CoreProvider has no "certified" (its certification is metadata.isCertified)
    expect(provider.certified).toBe(true);
    // @ts-expect-error CoreProvider has no "lastCertification" (the console asks the certifications route)
    expect(provider.lastCertification).toEqual({});

    const event = answerAs<EventView>({ eventType: 'ORDER_STATUS_CHANGED' });
    expect(event.eventType).toBe('ORDER_STATUS_CHANGED');
    // @ts-expect-error CoreEvent's field is "eventType", not "type"
    expect(event.type).toBeUndefined();

    const entry = answerAs<HistoryEntryView>({ trigger: 'APPROVE' });
    expect(entry.trigger).toBe('APPROVE');
    // @ts-expect-error CoreHistoryEntry has no "decision" (the decision is its trigger)
    expect(entry.decision).toBeUndefined();

    const rotation = answerAs<RotationView['webhook']>({ secret: 'whsec_x' });
    expect(rotation.secret).toBe('whsec_x');
    // @ts-expect-error CoreWebhookSecretRotation's webhook has no "previousSecret": the old one is never answered
    expect(rotation.previousSecret).toBeUndefined();
  });

  it('reads anything but an object as no fields', () => {
    for (const value of [null, 'text', 42, ['a']]) expect(answerAs<ProviderView>(value)).toEqual({});
  });
});

describe('the readers tolerate missing and mistyped fields and show only the named ones', () => {
  it('a provider row from an empty or mistyped answer is blank, not broken', () => {
    expect(providerRow({})).toEqual({
      name: '',
      slug: '',
      status: '',
      reviewStatus: '',
      certified: undefined,
      lastVerdict: undefined,
      lastPassedAt: undefined,
      capabilities: [],
    });
    expect(providerRow({ name: 42, metadata: 'x', capabilities: ['METADATA', 7] })).toMatchObject({
      name: '',
      capabilities: ['METADATA'],
    });
  });

  it('a provider row takes the review status and certification from the metadata', () => {
    const row = providerRow({
      name: 'Demo',
      reviewStatus: 'DRAFT',
      metadata: { isCertified: true, reviewStatus: 'ACTIVE' },
    });
    expect(row).toMatchObject({ name: 'Demo', reviewStatus: 'ACTIVE', certified: true });
  });

  it('the registration shows its named fields, never a secret or token the answer carried by mistake', () => {
    const fields = registrationFields({
      name: 'Demo',
      baseUrl: 'https://api.example.com',
      credentialEnv: 'DEMO_KEY',
      webhookSecret: 'whsec_leak',
      providerToken: { token: 'tok_leak' },
      credential: 'pk_leak',
    });
    expect(fields).toEqual([
      ['Name', 'Demo'],
      ['Base URL', 'https://api.example.com'],
      ['Credential variable', 'DEMO_KEY'],
    ]);
    expect(JSON.stringify(fields)).not.toMatch(/leak/);
  });

  it("the visible reason is the metadata's reviewReason", () => {
    const reason = { reasonCode: 'MISSING_ROUTE', reason: 'no /quote', requiredChanges: ['add /quote'] };
    expect(visibleReason({ metadata: { reviewReason: reason } })).toEqual(reason);
    expect(visibleReason({ metadata: {} })).toBeUndefined();
    expect(visibleReason({})).toBeUndefined();
  });

  it('the history drops internal notes unless asked, and names the trigger', () => {
    const body = { history: [{ trigger: 'APPROVE', actor: 'admin', internalNote: 'looked fine' }, 'junk'] };
    expect(history(body, false)).toEqual([expect.objectContaining({ what: 'APPROVE', internalNote: undefined })]);
    expect(history(body, true)[0]?.internalNote).toBe('looked fine');
  });

  it('certifications come from the admin detail or a listing', () => {
    const c = { id: 'c1', verdict: 'PASS', summary: { pass: 3 }, valid: false };
    for (const body of [{ certifications: [c] }, { data: [c] }])
      expect(certificationRows(body)).toEqual([
        expect.objectContaining({
          id: 'c1',
          verdict: 'PASS',
          summary: { pass: 3, fail: 0, skip: 0, error: 0, untested: 0 },
          invalidReason: 'no longer valid',
        }),
      ]);
  });

  it('an event row reads CoreEvent; a rotation without a secret shows nothing', () => {
    expect(eventRow({ seq: 4, eventType: 'ORDER_STATUS_CHANGED', verified: true, duplicate: false })).toMatchObject({
      seq: 4,
      eventType: 'ORDER_STATUS_CHANGED',
      verdictText: 'verified',
    });
    expect(rotationShown({ slug: 'demo', webhook: { url: 'https://core/x' } })).toBeUndefined();
    expect(rotationShown({ slug: 'demo', webhook: { secret: 'whsec_new' }, overlapSeconds: 'x' })).toMatchObject({
      slug: 'demo',
      secret: 'whsec_new',
      overlapSeconds: 0,
    });
  });
});
