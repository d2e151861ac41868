import { afterAll, beforeAll } from 'vitest';
import type { ReferenceProviderOptions, RunningProvider } from '../../src/reference-provider/index.js';
import { type Call, clientFor, type ReceivedEvent, startProvider, startReceiver } from './helpers.js';

/** A reference provider on loopback and a client speaking its auth method. */
export interface ProviderFixture {
  provider: RunningProvider;
  call: Call;
  /** Events the receiver got, after every send has settled. */
  events(): Promise<ReceivedEvent[]>;
}

export interface FixtureOptions extends Partial<ReferenceProviderOptions> {
  /** Start a webhook receiver and send the provider's events to it (without one, events are skipped). */
  receiver?: boolean;
}

async function open({ receiver: wanted = false, ...overrides }: FixtureOptions) {
  const receiver = wanted ? await startReceiver() : undefined;
  let provider: RunningProvider;
  try {
    provider = await startProvider({ ...(receiver ? { webhookUrl: receiver.url } : {}), ...overrides });
  } catch (error) {
    await receiver?.close();
    throw error;
  }
  return {
    provider,
    call: clientFor(provider, overrides.authMethod ?? 'API_KEY'),
    async events(): Promise<ReceivedEvent[]> {
      if (!receiver) throw new Error('this provider was started without a receiver ({ receiver: true })');
      await provider.webhooksSettled();
      return receiver.events;
    },
    async close(): Promise<void> {
      await provider.close();
      await receiver?.close();
    },
  };
}

/** Runs `use` against a provider of its own, closed (with its receiver) however `use` ends. */
export async function withProvider<T>(
  options: FixtureOptions,
  use: (fixture: ProviderFixture) => Promise<T>,
): Promise<T> {
  const fixture = await open(options);
  try {
    return await use(fixture);
  } finally {
    await fixture.close();
  }
}

/**
 * One provider for the enclosing describe (or file): started before its tests, closed after them. `call` may be
 * taken at once (`const { call } = providerForSuite()`): it calls whichever provider is running.
 */
export function providerForSuite(options: FixtureOptions = {}): ProviderFixture {
  let opened: Awaited<ReturnType<typeof open>> | undefined;
  beforeAll(async () => {
    opened = await open(options);
  });
  afterAll(async () => {
    await opened?.close();
    opened = undefined;
  });
  const running = () => {
    if (!opened) throw new Error('the suite provider runs only inside its tests');
    return opened;
  };
  return {
    get provider() {
      return running().provider;
    },
    call: (method, path, callOptions) => running().call(method, path, callOptions),
    events: () => running().events(),
  };
}
