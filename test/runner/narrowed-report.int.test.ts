import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRequirements } from '../../src/contract/requirements.js';
import { readStoredReport } from '../../src/report/read-report.js';
import { certify } from '../support/certify.js';
import { scratchDir } from '../support/scratch.js';

/**
 * A run narrowed with --only writes a report that `report` and `replay` read back: the checks the selection
 * left out that would not apply anyway (signature without HMAC) are reported as the skips a full run reports.
 */
describe('a narrowed run reads back as its own stored report', () => {
  it.each([
    ['API_KEY', { only: ['metadata', 'catalog'] }],
    ['BEARER_TOKEN', { only: ['metadata'] }],
    ['HMAC_SIGNATURE', { only: ['metadata'] }],
  ] as const)('%s %j', async (authMethod, selection) => {
    const { report } = await certify({ authMethod, only: [...selection.only] });
    const dir = await scratchDir('narrowed');
    await writeFile(join(dir, 'report.json'), JSON.stringify(report));
    const stored = await readStoredReport('report.json', dir, await loadRequirements());
    expect(stored.report.verdict).toBe('PARTIAL');
    const signature = stored.report.checks.find((c) => c.id === 'signature');
    if (authMethod === 'HMAC_SIGNATURE') expect(signature).toBeUndefined();
    else expect(signature?.status).toBe('skip');
  });
});
