import { describe, expect, it } from 'vitest';
import { judgeBaseAddress } from '../../src/http/base-address.js';
import { spellAsConfigKey as spell } from '../../src/model/setting-speller.js';
import { baseAddressProblems } from '../../src/server/core-routes/base-address.js';
import { serviceAddressAt } from '../../src/util/service-address.js';

/**
 * One rule for "the portal address and the core address must never be entered as a provider base address"
 * (issue 24 item 1): the base-url check and `serve`'s registration follow the same rows. `service` is the
 * service's own address (the embedded receiver for a run, the core server for `serve`); `own` says whether the
 * base address is that service, and so must be refused by both layers.
 */
const ROWS: { base: string; service: string; own: boolean }[] = [
  // The service itself, at any path: the core API, the receiver, the portal (served by the same server).
  { base: 'http://127.0.0.1:8787', service: 'http://127.0.0.1:8787', own: true },
  { base: 'http://127.0.0.1:8787/api/v1', service: 'http://127.0.0.1:8787', own: true },
  { base: 'http://127.0.0.1:8787/console', service: 'http://127.0.0.1:8787', own: true },
  { base: 'http://127.0.0.1:8787/', service: 'http://127.0.0.1:8787/api/v1/webhooks/demo-kitchen', own: true },
  { base: 'https://core.example.com/api/v1', service: 'https://core.example.com', own: true },
  { base: 'https://core.example.com:443/x', service: 'https://core.example.com', own: true },
  { base: 'https://CORE.example.com/x', service: 'https://core.example.com', own: true },
  // Loopback names reach the same local server.
  { base: 'http://localhost:8787', service: 'http://127.0.0.1:8787', own: true },
  { base: 'http://[::1]:8787/api/v1', service: 'http://127.0.0.1:8787', own: true },
  // A provider's own API, /api/v1 in its path or not.
  { base: 'http://127.0.0.1:3000/api/v1', service: 'http://127.0.0.1:8787', own: false },
  { base: 'https://shop.example.com/api/v1/provider', service: 'https://core.example.com', own: false },
  { base: 'https://api.example.com', service: 'https://core.example.com', own: false },
  { base: 'http://127.0.0.2:8787', service: 'http://127.0.0.1:8787', own: false },
  { base: 'https://core.example.com:8443', service: 'https://core.example.com', own: false },
  { base: 'not a url', service: 'https://core.example.com', own: false },
];

describe('a base address that is the service itself is refused alike by the base-url check and serve', () => {
  it.each(ROWS)('$base with the service at $service: own $own', ({ base, service, own }) => {
    // The rule itself.
    expect(serviceAddressAt(base, [{ what: 'the service', url: service }]) !== undefined).toBe(own);
    // The base-url check (a local run, so http and loopback pass and only this rule can refuse).
    const check = judgeBaseAddress(base, {
      local: true,
      service: [{ what: "provcert's own webhook receiver", url: service }],
      spell,
    });
    expect(check.problems.some((p) => p.requirement === 'BASE-URL-NOT-CORE')).toBe(own);
    // serve's registration (--local, as above).
    const registration = baseAddressProblems(base, { local: true, coreUrl: service });
    expect(registration.some((p) => p.includes("this core server's own address"))).toBe(own);
  });

  it('names the service address it matched', () => {
    expect(
      judgeBaseAddress('http://localhost:8787/api/v1', {
        local: true,
        service: [{ what: "provcert's own webhook receiver", url: 'http://127.0.0.1:8787/api/v1/webhooks/p' }],
        spell,
      }).problems,
    ).toEqual([
      {
        rule: 'not-service',
        part: 'host',
        severity: 'problem',
        text: "the base URL points at provcert's own webhook receiver (127.0.0.1:8787); enter the provider backend's address",
        requirement: 'BASE-URL-NOT-CORE',
      },
    ]);
  });
});
