import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirSync } from '../support/scratch.js';
import { providerForSuite, withProvider } from './fixture.js';
import { at, type Call, CREDENTIAL, certificationQuoteBody, createAction, startProvider, str } from './helpers.js';

const reference = providerForSuite();
const { call } = reference;

async function freshQuoteId(target: Call = call): Promise<string> {
  return str((await target('POST', '/quote', { body: await certificationQuoteBody(target) })).json, 'id');
}

describe('POST /actions validation', () => {
  it.each([
    ['providerSlug', /providerSlug/],
    ['quoteId', /quoteId/],
    ['userConfirmed', /userConfirmed/],
  ])('a missing %s answers 400 VALIDATION_ERROR (never QUOTE_EXPIRED)', async (field, message) => {
    const body: Record<string, unknown> = {
      providerSlug: 'demo-kitchen',
      quoteId: await freshQuoteId(),
      userConfirmed: true,
    };
    delete body[field];
    const answer = await call('POST', '/actions', { body });
    expect(answer.status).toBe(400);
    expect(at(answer.json, 'code')).toBe('VALIDATION_ERROR');
    expect(str(answer.json, 'message')).toMatch(message);
  });

  it('an empty body is a VALIDATION_ERROR too', async () => {
    const answer = await call('POST', '/actions');
    expect(at(answer.json, 'code')).toBe('VALIDATION_ERROR');
  });

  it('userConfirmed false answers 422 ACTION_NOT_CONFIRMED', async () => {
    const answer = await call('POST', '/actions', {
      body: { providerSlug: 'demo-kitchen', quoteId: await freshQuoteId(), userConfirmed: false },
    });
    expect(answer.status).toBe(422);
    expect(at(answer.json, 'code')).toBe('ACTION_NOT_CONFIRMED');
  });

  it('an unknown quote answers 404 NOT_FOUND', async () => {
    const answer = await call('POST', '/actions', {
      body: { providerSlug: 'demo-kitchen', quoteId: 'q_nothing', userConfirmed: true },
    });
    expect(answer.status).toBe(404);
    expect(at(answer.json, 'code')).toBe('NOT_FOUND');
  });

  describe('the quote is bound to its selection and destination', () => {
    type Item = Record<string, unknown>;
    const QUOTED_DESTINATION = { raw: '1 Test Street, Sandbox City' };
    /** [case, change to the action request given the quoted items, expected status, message] */
    const cases: [string, (items: Item[]) => Record<string, unknown>, number, RegExp | undefined][] = [
      ['the quoted items, in another order', (items) => ({ items: [...items].reverse() }), 200, undefined],
      ['no items and no destination (the quoted ones apply)', () => ({}), 200, undefined],
      ['the quoted destination', () => ({ destination: QUOTED_DESTINATION }), 200, undefined],
      [
        'a changed quantity',
        ([first, ...rest]) => ({ items: [{ ...first, quantity: 3 }, ...rest] }),
        400,
        /items differ from the quoted selection/,
      ],
      [
        'another offering, same quantity',
        ([first, ...rest]) => ({ items: [{ ...first, offeringId: 'off-pepperoni', variantId: undefined }, ...rest] }),
        400,
        /items differ/,
      ],
      [
        'another variant',
        ([first, ...rest]) => ({ items: [{ ...first, variantId: 'var-margherita-30' }, ...rest] }),
        400,
        /items differ/,
      ],
      [
        'other options',
        ([first, ...rest]) => ({ items: [{ ...first, selectedOptions: [] }, ...rest] }),
        400,
        /items differ/,
      ],
      ['a missing line', ([first]) => ({ items: [first] }), 400, /items differ/],
      [
        'another destination',
        () => ({ destination: { raw: '99 Elsewhere Road' } }),
        400,
        /destination differs from the quoted one; request a fresh quote/,
      ],
    ];
    it.each(cases)('an action with %s answers %i', async (_name, change, status, message) => {
      const quoteBody: Record<string, unknown> = {
        ...(await certificationQuoteBody(call)),
        destination: QUOTED_DESTINATION,
      };
      const quote = (await call('POST', '/quote', { body: quoteBody })).json;
      const before = reference.provider.webhookDeliveries.length;
      const body = {
        providerSlug: 'demo-kitchen',
        quoteId: str(quote, 'id'),
        userConfirmed: true,
        ...change(quoteBody.items as Item[]),
      };
      const answer = await call('POST', '/actions', { body });
      expect(answer.status).toBe(status);
      if (message) {
        expect(at(answer.json, 'code')).toBe('INVALID_ARGUMENT');
        expect(str(answer.json, 'message')).toMatch(message);
        expect(reference.provider.webhookDeliveries.length, 'no action was created').toBe(before);
      } else {
        expect(at(answer.json, 'metadata.destination')).toEqual(QUOTED_DESTINATION);
      }
    });

    it('a quote asked without destination binds none; a malformed destination is refused', async () => {
      const quoteId = await freshQuoteId();
      const answer = await call('POST', '/actions', {
        body: { providerSlug: 'demo-kitchen', quoteId, userConfirmed: true, destination: { raw: 'Anywhere 1' } },
      });
      expect(answer.status).toBe(200);
      const malformed = await call('POST', '/quote', {
        body: { ...(await certificationQuoteBody(call)), destination: 'Anywhere 1' },
      });
      expect(malformed.status).toBe(400);
      expect(str(malformed.json, 'message')).toMatch(/destination must be an object with a string raw/);
    });
  });

  it('without an idempotency key every request creates a new action', async () => {
    const first = await createAction(call);
    const second = await call('POST', '/actions', { body: first.body });
    expect(at(second.json, 'id')).not.toBe(at(first.action.json, 'id'));
  });
});

describe('idempotency', () => {
  it('a sequential duplicate returns the identical action; a changed payload answers 409', async () => {
    const { action, body } = await createAction(call, { idempotencyKey: 'seq-1' });
    const again = await call('POST', '/actions', { body });
    expect(again.status).toBe(200);
    expect(again.text).toBe(action.text);
    // Key order does not make a payload different.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await call('POST', '/actions', { body: reordered })).text).toBe(action.text);

    const changed = await call('POST', '/actions', {
      body: { ...body, customer: { name: 'Someone Else', phone: '+15550100001' } },
    });
    expect(changed.status).toBe(409);
    expect(at(changed.json, 'code')).toBe('IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD');
  });

  it('10 concurrent duplicates with a fresh key create exactly one action', async () => {
    const body = {
      providerSlug: 'demo-kitchen',
      quoteId: await freshQuoteId(),
      userConfirmed: true,
      idempotencyKey: 'concurrent-1',
    };
    const before = reference.provider.webhookDeliveries.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/actions', { body })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => at(a.json, 'id'))).size).toBe(1);
    expect(reference.provider.webhookDeliveries.length - before).toBe(1);
  });

  it('survives a restart on the same data file', async () => {
    const dataFile = join(scratchDirSync('provider-test'), 'provider.json');
    const { action, body } = await withProvider({ dataFile }, ({ call: firstCall }) =>
      createAction(firstCall, { idempotencyKey: 'restart-1' }),
    );
    expect(readFileSync(dataFile, 'utf8')).not.toContain(CREDENTIAL);

    await withProvider({ dataFile }, async ({ call: secondCall }) => {
      const again = await secondCall('POST', '/actions', { body });
      expect(again.text).toBe(action.text);
      expect((await secondCall('GET', `/actions/${str(action.json, 'publicId')}`)).json).toEqual(action.json);
      expect(
        (
          await secondCall('POST', '/actions', {
            body: { ...body, userConfirmed: true, destination: { raw: 'elsewhere' } },
          })
        ).status,
      ).toBe(409);
      // Numbering continues after the restart.
      const next = await createAction(secondCall);
      expect(at(next.action.json, 'publicId')).toBe('DK-1002');
    });
  });

  it('keeps a quote it answered across a restart: quotes are written together, and all of them on close', async () => {
    const dataFile = join(scratchDirSync('provider-test'), 'provider.json');
    const quoteIds = await withProvider({ dataFile }, ({ call: firstCall }) =>
      Promise.all([1, 2, 3].map(() => freshQuoteId(firstCall))),
    );
    await withProvider({ dataFile }, async ({ call: secondCall }) => {
      for (const quoteId of quoteIds) {
        const created = await secondCall('POST', '/actions', {
          body: {
            providerSlug: 'demo-kitchen',
            quoteId,
            userConfirmed: true,
            customer: { name: 'Certification Tester', phone: '+15550100000' },
            destination: { raw: '1 Test Street' },
          },
        });
        expect(created.status, quoteId).toBe(200);
      }
    });
  });

  it('refuses to start on a data file that is not its own or cannot be written', async () => {
    const dir = scratchDirSync('provider-test');
    const dataFile = join(dir, 'broken.json');
    writeFileSync(dataFile, '{"hello":');
    await expect(startProvider({ dataFile })).rejects.toThrow(/cannot read data file/);
    await expect(startProvider({ dataFile: join(dir, 'missing-dir', 'provider.json') })).rejects.toThrow(
      /cannot write data file/,
    );
  });
});
