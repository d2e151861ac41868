import { describe, expect, it } from 'vitest';
import { PrerequisiteError } from '../../src/checks/framework/resources.js';
import type { CheckContext, CheckDefinition } from '../../src/checks/framework/types.js';
import type { CheckId, CheckStatus } from '../../src/model/check-ids.js';
import type { CheckOutcome, CheckResult } from '../../src/model/report.js';
import { type RunHooks, scheduleChecks, topologicalOrder, type Verdicts } from '../../src/runner/schedule.js';

// The scheduler reads only the context's signal (interrupts); these fake checks never read the rest.
const ctx = { signal: new AbortController().signal } as CheckContext;

const outcome = (status: CheckStatus, message = `${status} message`): CheckOutcome => ({
  status,
  message,
  evidence: [],
});

function check(
  id: CheckId,
  run: CheckDefinition['run'] = async () => outcome('pass'),
  extra: Partial<CheckDefinition> = {},
): CheckDefinition {
  return {
    id,
    group: 'read',
    title: `title of ${id}`,
    rule: `rule of ${id}`,
    requirements: ['TEST-RULE'],
    appliesTo: { description: 'always' },
    run,
    ...extra,
  };
}

/** A promise the test resolves when it chooses, to order events without sleeping. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function schedule(
  defs: CheckDefinition[],
  options: { decided?: Verdicts; concurrency?: number; hooks?: RunHooks } = {},
): Promise<CheckResult[]> {
  return scheduleChecks(defs, ctx, options.decided ?? new Map(), {
    concurrency: options.concurrency ?? 4,
    ...(options.hooks ? { hooks: options.hooks } : {}),
  }).then((scheduled) => {
    // Nothing stopped these runs: nothing may be recorded as kept from running.
    expect(scheduled.notRun).toEqual([]);
    return scheduled.results;
  });
}

const byId = (results: CheckResult[]): Map<CheckId, CheckResult> => new Map(results.map((r) => [r.id, r]));

describe('scheduleChecks: results', () => {
  it('returns results in declaration order, not completion order', async () => {
    const slow = gate();
    const defs = [
      check('base-url', async () => {
        await slow.opened;
        return outcome('pass');
      }),
      check('metadata', async () => {
        slow.open();
        return outcome('fail');
      }),
      check('health'),
    ];
    const results = await schedule(defs);
    expect(results.map((r) => r.id)).toEqual(['base-url', 'metadata', 'health']);
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail', 'pass']);
  });

  it('carries title, rule, the outcome and a duration from the injected clock', async () => {
    let t = 100;
    const {
      results: [result],
    } = await scheduleChecks(
      [
        check('health', async () => {
          t += 42;
          return {
            ...outcome('fail', 'latencyMs is a string'),
            details: ['second problem'],
            findings: [
              { severity: 'fail', message: 'latencyMs is a string' },
              { severity: 'fail', requirement: 'OTHER-RULE', message: 'second problem' },
            ],
          };
        }),
      ],
      ctx,
      new Map(),
      { concurrency: 1, now: () => t },
    );
    // A finding recorded without a requirement stands on the check's primary one.
    expect(result).toEqual({
      id: 'health',
      title: 'title of health',
      rule: 'rule of health',
      requirements: ['TEST-RULE'],
      status: 'fail',
      message: 'latencyMs is a string',
      details: ['second problem'],
      evidence: [],
      durationMs: 42,
      findings: [
        { severity: 'fail', requirement: 'TEST-RULE', message: 'latencyMs is a string' },
        { severity: 'fail', requirement: 'OTHER-RULE', message: 'second problem' },
      ],
    });
  });
});

describe('scheduleChecks: dependsOn', () => {
  const cases: { name: string; dependency: CheckDefinition['run']; decided?: Verdicts; message: string }[] = [
    { name: 'failed', dependency: async () => outcome('fail'), message: 'skipped: depends on catalog, which failed' },
    {
      name: 'was skipped',
      dependency: async () => outcome('skip'),
      message: 'skipped: depends on catalog, which was skipped',
    },
    {
      name: 'could not run (error outcome)',
      dependency: async () => outcome('error'),
      message: 'skipped: depends on catalog, which could not run',
    },
    {
      name: 'could not run (threw)',
      dependency: async () => {
        throw new Error('boom');
      },
      message: 'skipped: depends on catalog, which could not run',
    },
    {
      name: 'was skipped by decision',
      dependency: async () => outcome('pass'),
      decided: new Map([['catalog', 'not applicable']]),
      message: 'skipped: depends on catalog, which was skipped',
    },
  ];

  for (const c of cases) {
    it(`skips a dependent whose dependency ${c.name}, naming it, without running it`, async () => {
      let ran = false;
      const dependent = check(
        'offering',
        async () => {
          ran = true;
          return outcome('pass');
        },
        { dependsOn: ['catalog'] },
      );
      // Declared before its dependency on purpose: the scheduler orders by dependencies, not by position.
      const results = byId(
        await schedule([dependent, check('catalog', c.dependency)], c.decided ? { decided: c.decided } : {}),
      );
      expect(results.get('offering')).toMatchObject({ status: 'skip', message: c.message });
      expect(ran).toBe(false);
    });
  }

  it('runs a dependent after its dependency passed', async () => {
    const events: string[] = [];
    const defs = [
      check(
        'offering',
        async () => {
          events.push('offering');
          return outcome('pass');
        },
        { dependsOn: ['catalog'] },
      ),
      check('catalog', async () => {
        await tick();
        events.push('catalog');
        return outcome('pass');
      }),
    ];
    const results = await schedule(defs);
    expect(events).toEqual(['catalog', 'offering']);
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass']);
  });

  it('names the first dependency that did not pass', async () => {
    const defs = [
      check('metadata'),
      check('catalog', async () => outcome('fail')),
      check('offering', undefined, { dependsOn: ['metadata', 'catalog'] }),
    ];
    expect(byId(await schedule(defs)).get('offering')?.message).toBe('skipped: depends on catalog, which failed');
  });

  it('skips transitively: a skipped dependent makes its own dependents skip naming it', async () => {
    const defs = [
      check('catalog', async () => outcome('fail')),
      check('offering', undefined, { dependsOn: ['catalog'] }),
      check('search', undefined, { dependsOn: ['offering'] }),
    ];
    expect(byId(await schedule(defs)).get('search')?.message).toBe('skipped: depends on offering, which was skipped');
  });

  it('ignores a dependency that is not selected in this run', async () => {
    const results = await schedule([check('offering', undefined, { dependsOn: ['catalog'] })]);
    expect(results[0]?.status).toBe('pass');
  });
});

describe('scheduleChecks: after', () => {
  for (const status of ['pass', 'fail', 'skip', 'error'] as const) {
    it(`waits for an earlier check that ends with ${status}, then runs regardless`, async () => {
      const events: string[] = [];
      const release = gate();
      const defs = [
        check(
          'cancel',
          async () => {
            events.push('cancel');
            return outcome('pass');
          },
          { after: ['webhook'] },
        ),
        check('webhook', async () => {
          await release.opened;
          events.push('webhook');
          return outcome(status);
        }),
      ];
      const running = schedule(defs);
      await tick();
      await tick();
      expect(events).toEqual([]);
      release.open();
      const results = await running;
      expect(events).toEqual(['webhook', 'cancel']);
      expect(results[0]).toMatchObject({ id: 'cancel', status: 'pass' });
    });
  }

  it('ignores an `after` naming the check itself or an unselected check', async () => {
    const results = await schedule([check('cancel', undefined, { after: ['cancel', 'webhook'] })]);
    expect(results[0]?.status).toBe('pass');
  });
});

describe('scheduleChecks: thrown errors', () => {
  it('turns a PrerequisiteError owned by another check into a skip naming the owner', async () => {
    const defs = [
      check('quote-expiry', async () => {
        throw new PrerequisiteError('quote-math', 'POST /quote answered HTTP 500');
      }),
    ];
    const [result] = await schedule(defs);
    expect(result).toMatchObject({
      status: 'skip',
      message: 'skipped: POST /quote answered HTTP 500 (see quote-math)',
    });
  });

  it('uses the message itself when the check owns the PrerequisiteError', async () => {
    const defs = [
      check('catalog', async () => {
        throw new PrerequisiteError('catalog', 'the catalog has no available offering to quote');
      }),
    ];
    const [result] = await schedule(defs);
    expect(result).toMatchObject({ status: 'skip', message: 'the catalog has no available offering to quote' });
  });

  const thrown: { name: string; value: unknown; text: string }[] = [
    {
      name: 'an Error',
      value: new TypeError('cannot read properties of undefined'),
      text: 'cannot read properties of undefined',
    },
    { name: 'a non-Error value', value: 'plain string', text: 'plain string' },
  ];
  for (const t of thrown) {
    it(`turns ${t.name} into status error saying it is a bug in provcert`, async () => {
      const [result] = await schedule([
        check('errors', async () => {
          throw t.value;
        }),
      ]);
      expect(result?.status).toBe('error');
      expect(result?.message).toContain(t.text);
      expect(result?.message).toContain('this is a bug in provcert');
    });
  }
});

describe('scheduleChecks: decided skips', () => {
  it('skips a decided check with the given reason and never runs it', async () => {
    let ran = false;
    const results = await schedule(
      [
        check('search', async () => {
          ran = true;
          return outcome('pass');
        }),
        check('health'),
      ],
      {
        decided: new Map([
          ['search', 'capability SEARCH is not declared and not required in the TRANSACTIONAL profile'],
        ]),
      },
    );
    expect(results[0]).toMatchObject({
      id: 'search',
      status: 'skip',
      message: 'capability SEARCH is not declared and not required in the TRANSACTIONAL profile',
      evidence: [],
    });
    expect(results[1]?.status).toBe('pass');
    expect(ran).toBe(false);
  });
});

describe('scheduleChecks: concurrency', () => {
  const cases = [
    { concurrency: 1, checks: 5, expected: 1 },
    { concurrency: 2, checks: 6, expected: 2 },
    { concurrency: 3, checks: 7, expected: 3 },
    { concurrency: 8, checks: 4, expected: 4 },
    { concurrency: 0, checks: 3, expected: 1 }, // clamped to at least one
  ];
  const ids: CheckId[] = ['base-url', 'metadata', 'capabilities', 'health', 'locations', 'catalog', 'offering'];

  for (const c of cases) {
    it(`runs at most ${c.expected} checks at once with concurrency ${c.concurrency} (${c.checks} independent checks)`, async () => {
      let running = 0;
      let peak = 0;
      const run = async (): Promise<CheckOutcome> => {
        running++;
        peak = Math.max(peak, running);
        // Several turns of the event loop, so every check that could start does start meanwhile.
        for (let i = 0; i < 5; i++) await tick();
        running--;
        return outcome('pass');
      };
      const results = await schedule(
        ids.slice(0, c.checks).map((id) => check(id, run)),
        { concurrency: c.concurrency },
      );
      expect(results).toHaveLength(c.checks);
      expect(results.every((r) => r.status === 'pass')).toBe(true);
      expect(peak).toBe(c.expected);
    });
  }

  it('releases the slot of a check that threw', async () => {
    const results = await schedule(
      [
        check('health', async () => {
          throw new Error('boom');
        }),
        check('catalog'),
      ],
      { concurrency: 1 },
    );
    expect(results.map((r) => r.status)).toEqual(['error', 'pass']);
  });

  it('starts the checks that wait out a quote first, so their expiry waits elapse together', async () => {
    const started: CheckId[] = [];
    const hooks: RunHooks = { onCheckStart: (id) => started.push(id) };
    const waits = { waitsForQuoteExpiry: true } as const;
    const results = await schedule(
      [
        check('base-url'),
        check('health'),
        check('quote-expiry', undefined, waits),
        check('catalog'),
        check('lifecycle', undefined, waits),
      ],
      { concurrency: 1, hooks },
    );
    expect(started).toEqual(['quote-expiry', 'lifecycle', 'base-url', 'health', 'catalog']);
    // Results keep the declaration order.
    expect(results.map((r) => r.id)).toEqual(['base-url', 'health', 'quote-expiry', 'catalog', 'lifecycle']);
  });

  it('still starts an early check only after the checks it depends on', async () => {
    const started: CheckId[] = [];
    const hooks: RunHooks = { onCheckStart: (id) => started.push(id) };
    await schedule(
      [
        check('base-url'),
        check('payment-pending'),
        check('idempotency', undefined, { waitsForQuoteExpiry: true, dependsOn: ['payment-pending'] }),
      ],
      { concurrency: 1, hooks },
    );
    expect(started).toEqual(['payment-pending', 'base-url', 'idempotency']);
  });
});

describe('scheduleChecks: hooks', () => {
  it('calls onCheckEnd once per check and onCheckStart once per check that runs', async () => {
    const starts: CheckId[] = [];
    const ends: CheckResult[] = [];
    const hooks: RunHooks = { onCheckStart: (id) => starts.push(id), onCheckEnd: (r) => ends.push(r) };
    const defs = [
      check('catalog', async () => outcome('fail')),
      check('offering', undefined, { dependsOn: ['catalog'] }),
      check('search'),
      check('health'),
      check('errors', async () => {
        throw new Error('boom');
      }),
    ];
    const results = await schedule(defs, { hooks, decided: new Map([['search', 'not declared']]) });
    expect([...starts].sort()).toEqual(['catalog', 'errors', 'health']);
    expect(ends.map((r) => r.id).sort()).toEqual(['catalog', 'errors', 'health', 'offering', 'search']);
    // The hook sees the very results returned.
    for (const r of results) expect(ends.find((e) => e.id === r.id)).toBe(r);
  });

  it('passes the title to onCheckStart before the check runs', async () => {
    const events: string[] = [];
    await schedule(
      [
        check('health', async () => {
          events.push('run');
          return outcome('pass');
        }),
      ],
      {
        hooks: {
          onCheckStart: (id, title) => events.push(`start ${id} ${title}`),
          onCheckEnd: (r) => events.push(`end ${r.id}`),
        },
      },
    );
    expect(events).toEqual(['start health title of health', 'run', 'end health']);
  });
});

describe('dependency cycles and order', () => {
  const cycles: { name: string; defs: CheckDefinition[] }[] = [
    {
      name: 'dependsOn',
      defs: [
        check('catalog', undefined, { dependsOn: ['offering'] }),
        check('offering', undefined, { dependsOn: ['catalog'] }),
      ],
    },
    {
      name: 'after',
      defs: [check('cancel', undefined, { after: ['webhook'] }), check('webhook', undefined, { after: ['cancel'] })],
    },
    {
      name: 'three checks, mixed',
      defs: [
        check('quote-math', undefined, { dependsOn: ['idempotency'] }),
        check('payment-pending', undefined, { dependsOn: ['quote-math'] }),
        check('idempotency', undefined, { after: ['payment-pending'] }),
      ],
    },
  ];
  for (const c of cycles) {
    it(`throws on a cycle through ${c.name}, naming the path`, async () => {
      expect(() => topologicalOrder(c.defs)).toThrow(/^check dependency cycle: .+ → .+/);
      await expect(schedule(c.defs)).rejects.toThrow('check dependency cycle');
    });
  }

  it('orders dependencies first and keeps declaration order otherwise', () => {
    const defs = [
      check('idempotency', undefined, { dependsOn: ['payment-pending'] }),
      check('health'),
      check('payment-pending', undefined, { dependsOn: ['quote-math'] }),
      check('quote-math', undefined, { after: ['catalog'] }),
      check('catalog'),
    ];
    expect(topologicalOrder(defs).map((d) => d.id)).toEqual([
      'catalog',
      'quote-math',
      'payment-pending',
      'idempotency',
      'health',
    ]);
  });
});

describe('scheduleChecks: interrupted (Ctrl-C)', () => {
  it('turns a check cut short into a skip keeping what it saw, never starts the waiting ones, and records both as not run', async () => {
    const interrupt = new AbortController();
    const interrupted = { signal: interrupt.signal } as CheckContext;
    const running = gate();
    let secondRan = false;
    const defs = [
      check('health', async () => outcome('pass')),
      check('quote-expiry', async () => {
        running.open();
        await new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve()));
        return outcome('fail', 'no event arrived');
      }),
      check('webhook', async () => {
        secondRan = true;
        return outcome('pass');
      }),
      check('cancel', async () => outcome('pass'), { dependsOn: ['quote-expiry'] }),
      check('search', async () => outcome('pass'), { dependsOn: ['health'] }),
    ];
    const scheduled = scheduleChecks(defs, interrupted, new Map([['search', 'not applicable']]), { concurrency: 1 });
    await running.opened;
    interrupt.abort();
    const { results, notRun } = await scheduled;
    const [health, expiry, webhook, cancel, search] = results;
    expect(health?.status).toBe('pass');
    expect(expiry).toMatchObject({
      status: 'skip',
      message: 'interrupted before this check finished (the run was stopped)',
      details: ['no event arrived'],
    });
    expect(webhook?.status).toBe('skip');
    expect(secondRan).toBe(false);
    expect(cancel).toMatchObject({ status: 'skip', message: 'skipped: depends on quote-expiry, which was skipped' });
    expect(search).toMatchObject({ status: 'skip', message: 'not applicable' });
    // Recorded as they happened: the finished check and the decided skip ran (or were decided) regardless.
    expect(notRun).toEqual(['quote-expiry', 'webhook', 'cancel']);
  });

  it('a check that passes as the stop arrives ran to the end: it is not recorded as not run', async () => {
    const interrupt = new AbortController();
    const defs = [
      check('catalog', async () => {
        interrupt.abort();
        return outcome('pass');
      }),
    ];
    const { results, notRun } = await scheduleChecks(defs, { signal: interrupt.signal } as CheckContext, new Map(), {
      concurrency: 1,
    });
    expect(results[0]?.status).toBe('pass');
    expect(notRun).toEqual([]);
  });

  it('skips a check that had not started when the run was interrupted', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const {
      results: [result],
      notRun,
    } = await scheduleChecks(
      [check('catalog', async () => outcome('pass'))],
      { signal: interrupt.signal } as CheckContext,
      new Map(),
      { concurrency: 1 },
    );
    expect(result).toMatchObject({
      status: 'skip',
      message: 'interrupted before this check finished (the run was stopped)',
    });
    expect(notRun).toEqual(['catalog']);
  });
});
