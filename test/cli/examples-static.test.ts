import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { distantWaiverWarning } from '../../src/model/waivers.js';
import { isCalendarDate } from '../../src/util/expected-failures.js';
import { packageRoot } from '../../src/util/package-root.js';

/**
 * What the CI examples and the guides hand a user to copy, read as text (examples.e2e.test.ts runs them): the
 * GitHub example shows the certification as a test view, and no example waiver is already past (issue 34).
 */

const read = (path: string): string => readFileSync(join(packageRoot, path), 'utf8');

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

describe('the GitHub Actions example', () => {
  it('publishes a test view of the JUnit file its certify step writes, also when the certification fails', () => {
    const workflow = parse(read('examples/github-actions.yml')) as Workflow;
    const [job] = Object.values(workflow.jobs);
    const steps = job?.steps ?? [];
    const certify = steps.find((s) => s.run?.includes('provcert run'));
    const junit = /--junit (\S+)/.exec(certify?.run ?? '')?.[1];
    expect(junit).toBeDefined();
    const view = steps.find((s) => s.uses?.startsWith('dorny/test-reporter@'));
    expect(view?.with).toMatchObject({ path: junit, reporter: 'java-junit' });
    // A failing certification is when the view matters: the step runs after it, whatever its outcome.
    expect(view?.if).toMatch(/always\(\)/);
    expect(steps.indexOf(view as Step)).toBeGreaterThan(steps.indexOf(certify as Step));
    // A check run needs this permission; without it the step fails on every push.
    expect(job?.permissions?.['checks']).toBe('write');
  });
});

/** README, the hand-written docs pages and the examples: what a user copies. The generated reference has no waiver. */
function copiedTexts(): { path: string; text: string }[] {
  const docs = readdirSync(join(packageRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split('\\').join('/')}`);
  const examples = readdirSync(join(packageRoot, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ya?ml|md|ts|js)$/.test(f) && !f.includes('node_modules'))
    .map((f) => `examples/${f.split('\\').join('/')}`);
  return ['README.md', ...docs, ...examples].map((path) => ({ path, text: read(path) }));
}

describe('example waivers', () => {
  it('every `until` date a user copies is ahead, and near enough not to warn', () => {
    const today = new Date().toISOString().slice(0, 10);
    const dates = copiedTexts().flatMap(({ path, text }) =>
      [...text.matchAll(/\buntil\b["']?:?\s*["']?(\d{4}-\d{2}-\d{2})/g)]
        .map((m) => m[1] ?? '')
        // A date that is no date is an example of the refusal (docs/guides/ci.md), not a waiver to copy.
        .filter(isCalendarDate)
        .map((until) => ({ path, until })),
    );
    expect(dates.map((d) => d.path)).toEqual(
      expect.arrayContaining(['docs/guides/ci.md', 'docs/guides/operator.md', 'examples/fleet/fleet.yaml']),
    );
    for (const { path, until } of dates) {
      expect(until >= today, `${path}: until ${until} has passed; a copied waiver fails the gate`).toBe(true);
      expect(distantWaiverWarning(until, today), `${path}: until ${until}`).toBeUndefined();
    }
  });
});
