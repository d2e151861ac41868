import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import { renderJson } from '../../src/report/json.js';
import { certify } from '../support/certify.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

async function reportValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(
    JSON.parse(await readFile(join(import.meta.dirname, '../../spec/report.schema.json'), 'utf8')) as object,
  );
}

describe.concurrent('a conforming provider passes the whole certification', () => {
  it.each(['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'] as AuthMethod[])(
    'with %s: PASS, no fail, a report valid against spec/report.schema.json',
    async (authMethod) => {
      const { report } = await certify({ authMethod });
      const problems = report.checks
        .filter((c) => c.status === 'fail' || c.status === 'error')
        .map((c) => `${c.id}: ${c.message}`);
      expect(problems).toEqual([]);
      expect(report.verdict).toBe('PASS');
      expect(report.provider).toMatchObject({ slug: 'demo-kitchen', authMethod, profile: 'TRANSACTIONAL' });
      // Every check ran except the one that does not apply to this auth method.
      const skipped = report.checks.filter((c) => c.status === 'skip').map((c) => c.id);
      expect(skipped).toEqual(authMethod === 'HMAC_SIGNATURE' ? ['wrong-credential'] : ['signature']);
      expect(report.webhooks.events.length).toBeGreaterThan(0);
      expect(report.webhooks.events.every((e) => e.verified)).toBe(true);
      const validate = await reportValidator();
      expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it('a failing run also yields a schema-valid report with evidence and a reproduce command', async () => {
    const { report } = await certify({ faults: ['catalog-wrong-type'], only: ['catalog', 'offering', 'search'] });
    const catalog = report.checks.find((c) => c.id === 'catalog');
    expect(report.verdict).toBe('FAIL');
    expect(catalog?.message).toContain('must be integer (found string "12.50")');
    expect(catalog?.evidence.length).toBeGreaterThan(0);
    expect(catalog?.reproduce).toMatch(/^curl .*\/catalog/m);
    const validate = await reportValidator();
    expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });
});
