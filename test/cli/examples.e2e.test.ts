import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { endProcessGroups } from '../support/process-groups.js';
import { scratchDir } from '../support/scratch.js';
import { asWritten, distinctPortMap, envWithPorts, withPorts } from './example-ports.js';
import { installInFreshProject, packProvcert, repo, runCommand, userEnv } from './packed-provcert.js';

const examples = join(repo, 'examples');

interface Workflow {
  jobs: { certify: { env: Record<string, string>; steps: { id?: string; run?: string }[] } };
}
interface GitlabJob {
  certify: { variables: Record<string, string>; script: string[] };
}

let work = '';
let providerRepo = '';

// A provider repository as the examples' header comments set it up: provcert's tarball under vendor/, installed with
// `npm install --save-dev ./vendor/provcert-<version>.tgz` (lockfile only: each example's own `npm ci` installs it).
beforeAll(async () => {
  work = await scratchDir('example');
  providerRepo = join(work, 'provider-repo');
  await mkdir(join(providerRepo, 'vendor'), { recursive: true });
  const packed = await packProvcert(join(providerRepo, 'vendor'));
  await installInFreshProject(providerRepo, `./vendor/${packed.filename}`, { lockOnly: true });
}, 240_000);

// The jobs' process groups (the backends started in the background included) end with the file, however it ends.
// Not after each test: the tests run concurrently, and endProcessGroups ends every group of this worker. Each job's
// group also ends when the job does (runScript).
afterAll(() => {
  endProcessGroups();
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Runs the shell commands of a CI example as they are written (installing provcert with `npm ci`, then `npx provcert`)
 * in a copy of the provider repository, its fixed ports replaced by free ones of its own (the only change: withPorts
 * refuses any other; the jobs run at once), and returns the last command's exit code and the directory with the reports.
 */
async function runScript(
  written: string,
  jobEnv: Record<string, string>,
): Promise<{ code: number | null; output: string; dir: string }> {
  const ports = await distinctPortMap();
  const script = withPorts(written, ports);
  expect(asWritten(script, ports)).toBe(written);
  const dir = await mkdtemp(join(work, 'job-'));
  await cp(providerRepo, dir, { recursive: true });
  const secrets = { PROVIDER_API_KEY: 'example-key-123', SERVICE_WEBHOOK_SECRET: 'example-secret-456' };
  // set -e: a failing line fails the job, as in both CI systems. The backend started in the background ends with the job.
  const env = userEnv({ ...secrets, ...envWithPorts(jobEnv, ports) });
  const r = await runCommand('bash', ['-c', `set -e\n${script}`], dir, {
    env,
    timeoutMs: 180_000,
    endProcessGroup: true,
  });
  return { code: r.code, output: r.stdout + r.stderr, dir };
}

function stepRun(steps: { id?: string; run?: string }[], id: string): string {
  const run = steps.find((s) => s.id === id)?.run;
  if (run === undefined) throw new Error(`examples/github-actions.yml has no step with id ${id} and a run command`);
  return run;
}

// Each job has its own copy of the repository and its own free ports: the two examples run concurrently.
describe.concurrent('CI examples run as written', () => {
  it('GitHub Actions: installs provcert with npm ci, starts the backend, certifies, writes JUnit + JSON + summary, exit 0', async () => {
    const workflow = parse(await readFile(join(examples, 'github-actions.yml'), 'utf8')) as Workflow;
    const { env, steps } = workflow.jobs.certify;
    const script = ['install', 'start-backend', 'certify'].map((id) => stepRun(steps, id)).join('\n');
    const r = await runScript(script, { BASE_URL: env['BASE_URL'] ?? '' });
    expect(r.code, r.output).toBe(0);
    expect(await readFile(join(r.dir, 'provcert-junit.xml'), 'utf8')).toMatch(/<testsuites[^>]* failures="0"/);
    expect(JSON.parse(await readFile(join(r.dir, 'provcert-report.json'), 'utf8'))).toMatchObject({ verdict: 'PASS' });
    expect(await readFile(join(r.dir, 'provcert-summary.md'), 'utf8')).toMatch(/PASS/);
  }, 240_000);

  it('GitLab CI: the same job fails the pipeline (exit 1) when the backend breaks a rule', async () => {
    const job = (parse(await readFile(join(examples, 'gitlab-ci.yml'), 'utf8')) as GitlabJob).certify;
    // The provider's own backend would be broken here; the reference provider is, with one fault switch.
    const script = job.script
      .join('\n')
      .replace('mock-provider --port 4010', 'mock-provider --fault quote-total-wrong --port 4010');
    const r = await runScript(script, job.variables);
    expect(r.code, r.output).toBe(1);
    const junit = await readFile(join(r.dir, 'provcert-junit.xml'), 'utf8');
    // A wrong total fails quote-math and quote-explore (every generated order has it).
    expect(junit).toMatch(/<testsuites[^>]* failures="2"/);
    expect(junit).toContain('quote-math');
  }, 240_000);
});
