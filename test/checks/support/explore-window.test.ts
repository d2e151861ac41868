import { describe, expect, it } from 'vitest';
import type { OfferingView } from '../../../src/checks/framework/views.js';
import { buildModel } from '../../../src/checks/support/explore/catalog-model.js';
import {
  fitOrder,
  NO_CAPS,
  type Order,
  type OrderCaps,
  sampleOrders,
  sendWithinBounds,
  shapedByRefusals,
  tighterCaps,
} from '../../../src/checks/support/explore/orders.js';
import { inPool, inWindow, LEARNING_LAG, MAX_IN_FLIGHT } from '../../../src/checks/support/explore/pool.js';
import { offering } from './catalog.js';

/**
 * Why one seed sent other orders when the provider refused some: a refusal teaches a bound (fewer items, smaller
 * quantities) that later orders keep to, and which later orders had learnt it depended on when its answer came.
 * inWindow gives each order what exactly the orders at least LEARNING_LAG places before it taught. Answers here are
 * released by the test, in an order a policy picks among those pending: oldest first, newest first, or shuffled.
 */

type Pick = (pending: number[]) => number;
const OLDEST: Pick = (pending) => Math.min(...pending);
const NEWEST: Pick = (pending) => Math.max(...pending);
/** A fixed pseudo-random choice (a linear congruential sequence), the same each test run. */
const shuffled = (): Pick => {
  let state = 12345;
  return (pending) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return pending[state % pending.length] as number;
  };
};

/** Answers that wait until `drive` releases them, one at a time, as `pick` chooses. */
function heldAnswers(pick: Pick) {
  const pending = new Map<number, () => void>();
  let asked = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const answer = <R>(value: () => R): Promise<R> =>
    new Promise<R>((resolve) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      pending.set(asked++, () => {
        inFlight--;
        resolve(value());
      });
    });
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  const drive = async <T>(run: Promise<T>): Promise<T> => {
    let done = false;
    void run.finally(() => {
      done = true;
    });
    while (!done) {
      await flush();
      if (pending.size === 0) continue;
      const id = pick([...pending.keys()]);
      const release = pending.get(id);
      pending.delete(id);
      release?.();
    }
    return run;
  };
  return { answer, drive, mostInFlight: () => mostInFlight };
}

describe('inWindow', () => {
  const inputs = Array.from({ length: 3 * LEARNING_LAG }, (_, i) => i);

  it.each([
    ['oldest first', OLDEST],
    ['newest first', NEWEST],
    ['shuffled', shuffled()],
  ])('gives input i what exactly the inputs up to i − LEARNING_LAG taught, answers released %s', async (_, pick) => {
    const held = heldAnswers(pick);
    const given: number[][] = [];
    const { results, known } = await held.drive(
      inWindow({
        inputs,
        initial: [] as number[],
        learn: (seen, r: number) => [...seen, r],
        work: (input, index, seen) => {
          given[index] = seen;
          return held.answer(() => input * 10);
        },
        stop: () => false,
      }),
    );
    expect(given).toEqual(inputs.map((i) => inputs.slice(0, Math.max(0, i - LEARNING_LAG + 1)).map((j) => j * 10)));
    expect(results).toEqual(inputs.map((i) => i * 10));
    expect(known).toEqual(inputs.map((i) => i * 10));
    expect(held.mostInFlight()).toBe(MAX_IN_FLIGHT);
  });

  it('stops starting inputs when told, and folds every input it finished', async () => {
    let started = 0;
    const { results, known } = await inWindow({
      inputs,
      initial: 0,
      learn: (sum, r: number) => sum + r,
      work: async (input) => {
        started++;
        return input;
      },
      stop: () => started >= 7,
    });
    expect(results.filter((r) => r !== undefined)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(known).toBe(21);
  });

  it('passes on the first failure after the started inputs have settled', async () => {
    let settled = 0;
    const run = inWindow({
      inputs,
      initial: 0,
      learn: (n) => n,
      work: async (input) => {
        await new Promise((resolve) => setImmediate(resolve));
        settled++;
        if (input === 2) throw new Error('answer 2 broke');
        return input;
      },
      stop: () => false,
    });
    await expect(run).rejects.toThrow('answer 2 broke');
    expect(settled).toBeLessThanOrEqual(2 + MAX_IN_FLIGHT);
  });
});

describe('generated orders against a provider that refuses some', async () => {
  const CATALOG: OfferingView[] = [offering('water', { basePrice: 100 }), offering('bread', { basePrice: 250 })];
  const orders = await sampleOrders(buildModel(CATALOG, ['loc-a']), 7, 60);
  /** Its own bounds: at most 2 items, at most 5 of one item (a clear 4xx beyond). */
  const refuses = (order: Order) => order.items.length > 2 || order.items.some((i) => i.quantity > 5);

  /**
   * The orders sent for each generated order, in the order sent, learning as quote-explore does (inWindow), with
   * answers released as `pick` chooses.
   */
  async function sentInWindow(pick: Pick): Promise<{ sent: string[][]; learnt: OrderCaps }> {
    const held = heldAnswers(pick);
    const sent: string[][] = orders.map(() => []);
    const { known } = await held.drive(
      inWindow({
        inputs: orders,
        initial: NO_CAPS,
        learn: (caps, r: { caps: OrderCaps }) => tighterCaps(caps, r.caps),
        work: (generated, index, caps) =>
          sendWithinBounds({
            generated,
            caps,
            send: (order) => {
              sent[index]?.push(JSON.stringify(order));
              return held.answer(() => ({ order, refused: refuses(order) }));
            },
            refused: (a) => a.refused,
            more: () => true,
          }),
        stop: () => false,
      }),
    );
    return { sent, learnt: known };
  }

  /** The rule before: a bound applied to every order started after its refusal was answered, whenever that was. */
  async function sentLearningOnArrival(pick: Pick): Promise<string[]> {
    const held = heldAnswers(pick);
    const sent: string[] = [];
    let caps = NO_CAPS;
    const send = (order: Order) => {
      sent.push(JSON.stringify(order));
      return held.answer(() => ({ order, refused: refuses(order) }));
    };
    await held.drive(
      inPool(
        orders,
        async (generated) => {
          const answers = await sendWithinBounds({
            generated: fitOrder(generated, caps),
            caps,
            send,
            refused: (a) => a.refused,
            more: () => true,
          });
          caps = tighterCaps(caps, answers.caps);
        },
        () => false,
      ),
    );
    return sent.sort();
  }

  it('are the same requests for each generated order, in the same order, however the answers are timed', async () => {
    const oldestFirst = await sentInWindow(OLDEST);
    expect(oldestFirst.sent.flat().filter((o) => refuses(JSON.parse(o) as Order)).length).toBeGreaterThan(1);
    expect(oldestFirst.learnt).not.toEqual(NO_CAPS);
    // Some generated orders were sent within a bound learnt from an earlier one.
    expect(oldestFirst.sent.some((requests, i) => requests[0] !== JSON.stringify(orders[i]))).toBe(true);
    expect(await sentInWindow(NEWEST)).toEqual(oldestFirst);
    expect(await sentInWindow(shuffled())).toEqual(oldestFirst);
  });

  it('were not, when a bound was learnt whenever its refusal arrived (the cause)', async () => {
    expect(await sentLearningOnArrival(NEWEST)).not.toEqual(await sentLearningOnArrival(OLDEST));
  });

  it('name the orders the refusals shaped: refused, or sent within a bound learnt before', () => {
    const water = (quantity: number): Order => ({ items: [{ offeringId: 'water', quantity }] });
    const bound = { items: 1, quantity: 5 };
    const answered = (order: Order) => ({ order });
    const generated = [water(9), water(2), water(8), water(2)];
    expect(
      shapedByRefusals(generated, [
        { refused: [answered(water(9))], last: answered(water(5)), caps: bound },
        { refused: [], last: answered(water(2)), caps: NO_CAPS },
        { refused: [], last: answered(fitOrder(water(8), bound)), caps: NO_CAPS },
        undefined,
      ]),
    ).toEqual([0, 2]);
  });
});
