import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bundledCoverage } from '../../src/cli/commands/coverage.js';
import { computeCoverage, coreSideText } from '../../src/contract/coverage.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/provcert.js');

describe('core-side requirements implemented by serve', () => {
  it('each names a proving test that exists', async () => {
    const coverage = await bundledCoverage();
    const served = coverage.rows.filter((r) => r.implementedBy === 'serve');
    expect(served.length).toBeGreaterThanOrEqual(20);
    for (const row of served) {
      expect(row.problems, row.id).toEqual([]);
      const [file, title] = (row.provenBy ?? '').split(' › ') as [string, string];
      const source = await readFile(join(ROOT, file), 'utf8').catch(() => '');
      expect(source, `${row.id}: ${file} does not exist`).not.toBe('');
      expect(source.includes(title), `${row.id}: no test "${title}" in ${file}`).toBe(true);
    }
    const core = coverage.rows.filter((r) => r.verification === 'core-side');
    expect(coreSideText(coverage)).toBe(
      `core-side: ${served.length} implemented by serve, ${core.length - served.length} service-only`,
    );
  });

  it('an implemented requirement without a proving test breaks coverage', () => {
    const entry = {
      id: 'REVIEW-X',
      section: 'S',
      quote: 'a quoted rule',
      verification: 'core-side' as const,
      reason: 'a reason here',
      'implemented-by': 'serve' as const,
    };
    const c = computeCoverage([entry], [], []);
    expect(c.rows[0]?.problems).toEqual(['implemented by serve, but names no proving test (proven-by)']);
    expect(coreSideText(c)).toBe('core-side: 1 implemented by serve, 0 service-only');
  });

  it('provcert coverage prints the core-side line', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'coverage'], { cwd: ROOT }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }),
    );
    expect(stdout).toMatch(/^core-side: \d+ implemented by serve, \d+ service-only$/m);
  });
});
