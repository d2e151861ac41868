import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile, chmod, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = join(import.meta.dirname, '../..');
const examples = join(repo, 'examples');

interface Workflow {
  jobs: { certify: { env: Record<string, string>; steps: { id?: string; run?: string }[] } };
}
interface GitlabJob {
  certify: { variables: Record<string, string>; script: string[] };
}

/**
 * Runs the shell commands of a CI example as they are written, with `npx --yes provcert` resolving to
 * this checkout (a `npx` shim on PATH), and returns the certify command's exit code and the reports.
 */
async function runScript(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-example-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  const shim = join(bin, 'npx');
  await writeFile(shim, `#!/usr/bin/env bash\n[ "$1" = "--yes" ] && shift\n[ "$1" = "provcert" ] || { echo "unexpected npx $*" >&2; exit 99; }\nshift\nexec node ${JSON.stringify(join(repo, 'bin/provcert.js'))} "$@"\n`);
  await chmod(shim, 0o755);
  // The backend started in the background must not outlive the script.
  const wrapped = `set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${script}`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', wrapped], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1', CI: '1', PROVIDER_API_KEY: 'example-key-123', SERVICE_WEBHOOK_SECRET: 'example-secret-456', ...env },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, dir }));
  });
}

describe('CI examples run as written', () => {
  it('GitHub Actions: starts the backend, certifies, writes JUnit + JSON + summary, exit 0', async () => {
    const workflow = parse(await readFile(join(examples, 'github-actions.yml'), 'utf8')) as Workflow;
    const { env, steps } = workflow.jobs.certify;
    const script = ['start-backend', 'certify'].map((id) => steps.find((s) => s.id === id)?.run ?? '').join('\n');
    const r = await runScript(script, { BASE_URL: env['BASE_URL'] ?? '' });
    expect(r.code, r.output).toBe(0);
    expect(await readFile(join(r.dir, 'provcert-junit.xml'), 'utf8')).toMatch(/<testsuites[^>]* failures="0"/);
    expect(JSON.parse(await readFile(join(r.dir, 'provcert-report.json'), 'utf8'))).toMatchObject({ verdict: 'PASS' });
    expect(await readFile(join(r.dir, 'provcert-summary.md'), 'utf8')).toMatch(/PASS/);
  }, 60_000);

  it('GitLab CI: the same job fails the pipeline (exit 1) when the backend breaks a rule', async () => {
    const job = (parse(await readFile(join(examples, 'gitlab-ci.yml'), 'utf8')) as GitlabJob).certify;
    // The provider's own backend would be broken here; the reference provider is, with one fault switch.
    const script = job.script.join('\n').replace('mock-provider --port 4010', 'mock-provider --fault quote-total-wrong --port 4010');
    const r = await runScript(script, job.variables);
    expect(r.code, r.output).toBe(1);
    const junit = await readFile(join(r.dir, 'provcert-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites[^>]* failures="1"/);
    expect(junit).toContain('quote-math');
  }, 60_000);
});
