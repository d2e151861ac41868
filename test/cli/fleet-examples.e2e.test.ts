import { copyFile, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { shardOf } from '../../src/fleet/shard.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { endProcessGroups } from '../support/process-groups.js';
import { scratchDir } from '../support/scratch.js';
import { asWritten, distinctPortMap, type PortMap, withPorts } from './example-ports.js';
import { installInFreshProject, packProvcert, repo, runCommand, userEnv } from './packed-provcert.js';

const examples = join(repo, 'examples', 'fleet');

interface Step {
  id?: string;
  run?: string;
}
interface Workflow {
  jobs: {
    certify: { strategy: { matrix: { shard: number[] } }; steps: Step[] };
    merge: { steps: Step[] };
  };
}
interface GitlabPipeline {
  certify: { parallel: number; script: string[] };
  'merge-reports': { script: string[] };
}
interface K8sContainer {
  args: string[];
  env?: { name: string; value: string }[];
}
interface K8sDoc {
  kind: string;
  metadata: { name: string };
  spec: {
    completionMode?: string;
    completions?: number;
    template: { spec: { containers: K8sContainer[] } };
  };
}

let work = '';
let providerRepo = '';
/** The provider repository after `npm ci`: each test's CI workspace is a copy of it. */
let installed = '';

/** examples/fleet/fleet.yaml with the free ports in place of the fixed ones, written to `path`. */
async function writeFleetFile(path: string, ports: PortMap): Promise<void> {
  await writeFile(path, withPorts(await readFile(join(examples, 'fleet.yaml'), 'utf8'), ports));
}

// A provider repository as the examples set it up: provcert's tarball under vendor/ (lockfile only) and fleet.yaml at
// its root (each workspace puts its test's free ports in it); then its dependencies installed once (`npm ci`).
beforeAll(async () => {
  work = await scratchDir('fleet-example');
  providerRepo = join(work, 'provider-repo');
  await mkdir(join(providerRepo, 'vendor'), { recursive: true });
  const packed = await packProvcert(join(providerRepo, 'vendor'));
  await installInFreshProject(providerRepo, `./vendor/${packed.filename}`, { lockOnly: true });
  await copyFile(join(examples, 'fleet.yaml'), join(providerRepo, 'fleet.yaml'));
  installed = join(work, 'installed');
  await cp(providerRepo, installed, { recursive: true });
  const r = await runCommand('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], installed, {
    env: userEnv(),
  });
  if (r.code !== 0) throw new Error(`npm ci failed:\n${r.stderr}`);
}, 240_000);

// The jobs' process groups (the backends started in the background included) end with the file, however it ends.
// Not after each test: the tests run concurrently, and endProcessGroups ends every group of this worker. Each job's
// group also ends when the job does (runJob).
afterAll(() => {
  endProcessGroups();
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** How the workflow names the matrix value; the runner puts the shard number in its place. */
const MATRIX_SHARD = ['$', '{{ matrix.shard }}'].join('');

const SECRETS = { PROVIDER_API_KEY: 'example-key-123', SERVICE_WEBHOOK_SECRET: 'example-secret-456' };

/**
 * A CI workspace: a copy of the provider repository with its dependencies installed (`npm ci`, once for all tests;
 * node_modules/.bin keeps its relative links), its fleet.yaml on this test's free ports.
 */
async function workspace(ports: PortMap): Promise<string> {
  const dir = await mkdtemp(join(work, 'ws-'));
  await cp(installed, dir, { recursive: true, verbatimSymlinks: true });
  await writeFleetFile(join(dir, 'fleet.yaml'), ports);
  return dir;
}

/**
 * Runs a script of an example as a CI job runs it (`set -e`; the backends it starts in the background end with
 * the job), in `dir`, its fixed ports replaced by free ones (the only change: withPorts refuses any other), and
 * returns its exit code and output.
 */
async function runJob(
  dir: string,
  ports: PortMap,
  written: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const script = withPorts(written, ports);
  expect(asWritten(script, ports)).toBe(written);
  const r = await runCommand('bash', ['-c', `set -e\n${script}`], dir, {
    env: userEnv({ ...SECRETS, ...env }),
    timeoutMs: 180_000,
    endProcessGroup: true,
  });
  return { code: r.code, output: r.stdout + r.stderr };
}

const readFleet = async (path: string): Promise<FleetReport> => JSON.parse(await readFile(path, 'utf8')) as FleetReport;

function stepRun(steps: Step[], id: string): string {
  const run = steps.find((s) => s.id === id)?.run;
  if (run === undefined) throw new Error(`the example has no step with id ${id} and a run command`);
  return run;
}

describe('the fleet examples split the fleet one provider per shard', () => {
  it('north-kitchen, south-kitchen and west-kitchen fall in shards 3, 2 and 1 of 3', async () => {
    const fleet = parse(await readFile(join(examples, 'fleet.yaml'), 'utf8')) as { providers: { slug: string }[] };
    const shards = fleet.providers.map((p) => shardOf(p.slug, 3));
    expect([...shards].sort()).toEqual([1, 2, 3]);
  });
});

// Each test has its own workspace and its own free ports: the three examples run concurrently (their shards in order).
// The backends start as written, with the reference provider's 5 s quotes (the contract's minimum): when a loaded
// machine delays provcert past a quote's expiry, provcert re-quotes (docs/decisions.md, "provcert re-quotes when
// its own slowness expired a quote") rather than failing a conforming backend.
describe.concurrent('fleet CI examples run as written', () => {
  it('GitHub Actions matrix: three shards, then merge-reports; the merged fleet passes (exit 0)', async () => {
    const workflow = parse(await readFile(join(examples, 'github-actions-matrix.yml'), 'utf8')) as Workflow;
    const { certify, merge } = workflow.jobs;
    expect(certify.strategy.matrix.shard).toEqual([1, 2, 3]);
    const ports = await distinctPortMap();
    const dir = await workspace(ports);
    const shardScript = ['start-backends', 'certify'].map((id) => stepRun(certify.steps, id)).join('\n');
    for (const shard of certify.strategy.matrix.shard) {
      const r = await runJob(dir, ports, shardScript.replaceAll(MATRIX_SHARD, String(shard)));
      expect(r.code, r.output).toBe(0);
      expect(await readFleet(join(dir, `shard-${shard}`, 'fleet.json'))).toMatchObject({
        shard: { index: shard, total: 3 },
        verdict: 'PASS',
      });
    }
    // download-artifact puts each shard's artifact in its own folder, as the shard jobs wrote them.
    const r = await runJob(dir, ports, stepRun(merge.steps, 'merge'));
    expect(r.code, r.output).toBe(0);
    const merged = await readFleet(join(dir, 'fleet-report', 'fleet.json'));
    expect(merged.verdict).toBe('PASS');
    expect(merged.mergedShards).toEqual([1, 2, 3].map((index) => ({ index, total: 3 })));
    expect(merged.providers.map((p) => [p.slug, p.verdict])).toEqual([
      ['north-kitchen', 'PASS'],
      ['south-kitchen', 'PASS'],
      ['west-kitchen', 'PASS'],
    ]);
    expect(await readFile(join(dir, 'fleet-summary.md'), 'utf8')).toContain('certification PASSED');
    expect(await readFile(join(dir, 'fleet-report', 'index.html'), 'utf8')).toContain(
      'href="providers/south-kitchen.html"',
    );
  }, 600_000);

  it('GitLab parallel: a backend that breaks a rule fails its shard and the merged fleet (exit 1)', async () => {
    const pipeline = parse(await readFile(join(examples, 'gitlab-parallel.yml'), 'utf8')) as GitlabPipeline;
    const { certify } = pipeline;
    expect(certify.parallel).toBe(3);
    // The provider's own backend would be broken here; the reference provider is, with one fault switch.
    const shardScript = certify.script
      .filter((line) => !line.startsWith('npm ci'))
      .join('\n')
      .replace('mock-provider --slug south-kitchen', 'mock-provider --fault quote-total-wrong --slug south-kitchen');
    const ports = await distinctPortMap();
    const dir = await workspace(ports);
    const codes: (number | null)[] = [];
    for (let index = 1; index <= certify.parallel; index++) {
      const r = await runJob(dir, ports, shardScript, {
        CI_NODE_INDEX: String(index),
        CI_NODE_TOTAL: String(certify.parallel),
      });
      codes.push(r.code);
    }
    // south-kitchen is in shard 2 of 3: that job fails, the others pass.
    expect(codes).toEqual([0, 1, 0]);
    const mergeScript = pipeline['merge-reports'].script.filter((line) => !line.startsWith('npm ci')).join('\n');
    const r = await runJob(dir, ports, mergeScript);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toMatch(/^south-kitchen\s+FAIL/m);
    expect(r.output).toContain('✗ south-kitchen  failing: quote-math');
    const merged = await readFleet(join(dir, 'fleet-report', 'fleet.json'));
    expect(merged).toMatchObject({ verdict: 'FAIL', summary: { providers: 3, passed: 2, failed: 1, notRun: 0 } });
    expect(await readFile(join(dir, 'fleet-report', 'fleet.junit.xml'), 'utf8')).toContain(
      '<testsuite name="provcert south-kitchen" tests="',
    );
  }, 600_000);

  it('Kubernetes Indexed Job: JOB_COMPLETION_INDEX 0, 1, 2 certify a shard each; the merge Job passes', async () => {
    const docs = parseAllDocuments(await readFile(join(examples, 'k8s-indexed-job.yaml'), 'utf8')).map(
      (d) => d.toJS() as K8sDoc,
    );
    const jobs = docs.filter((d) => d.kind === 'Job');
    const shards = jobs.find((j) => j.spec.completionMode === 'Indexed');
    const merge = jobs.find((j) => j !== shards);
    expect(shards?.spec.completions).toBe(3);
    const container = shards?.spec.template.spec.containers[0];
    const mergeContainer = merge?.spec.template.spec.containers[0];
    if (!container || !mergeContainer) throw new Error('the manifest needs the shard Job and the merge Job');
    // The pods' image is the provider repository with `npm ci` done; the shared volume is a folder here.
    const ports = await distinctPortMap();
    const dir = await workspace(ports);
    const reports = join(dir, 'reports');
    await mkdir(reports);
    await writeFleetFile(join(dir, 'config-fleet.yaml'), ports);
    const env = { REPORTS_DIR: reports, FLEET_FILE: join(dir, 'config-fleet.yaml') };
    const shardScript = container.args.join('\n');
    for (let index = 0; index < (shards?.spec.completions ?? 0); index++) {
      const r = await runJob(dir, ports, shardScript, { ...env, JOB_COMPLETION_INDEX: String(index) });
      expect(r.code, r.output).toBe(0);
      expect(await readFleet(join(reports, `shard-${index}`, 'fleet.json'))).toMatchObject({
        shard: { index: index + 1, total: 3 },
      });
    }
    const r = await runJob(dir, ports, mergeContainer.args.join('\n'), env);
    expect(r.code, r.output).toBe(0);
    const merged = await readFleet(join(reports, 'fleet-report', 'fleet.json'));
    expect(merged).toMatchObject({ verdict: 'PASS', summary: { providers: 3, passed: 3, notRun: 0 } });

    // A pod that never wrote its report: the merge warns, its provider is NOT_RUN, and the gate fails.
    await rename(join(reports, 'shard-1'), join(dir, 'lost-shard'));
    const lost = await runJob(dir, ports, mergeContainer.args.join('\n'), env);
    expect(lost.code, lost.output).toBe(1);
    expect(lost.output).toContain('warning: shard 2/3 is missing: its provider south-kitchen is reported NOT_RUN');
    expect(await readFleet(join(reports, 'fleet-report', 'fleet.json'))).toMatchObject({
      verdict: 'FAIL',
      summary: { notRun: 1 },
    });
  }, 600_000);
});
