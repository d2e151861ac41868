import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import { renderJson } from '../../src/report/json.js';
import { CANARY, failingReport, passingReport } from './sample-reports.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const schema = JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

function compile() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('renderJson and spec/report.schema.json', () => {
  const validate = compile();

  it.each([
    ['passing', passingReport],
    ['failing', failingReport],
  ])('the %s sample report validates against the schema', (_name, build) => {
    const parsed: unknown = JSON.parse(renderJson(build()));
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
  });

  it('validates the webhook facts: schemaValid beside verified, and the ignored requests counted by status', () => {
    const report = failingReport();
    const events = report.webhooks.events.map((e) => ({ ...e, verified: true, schemaValid: false }));
    const ignored = { count: 12, byStatus: { '401': 5, '413': 7 } };
    const parsed = JSON.parse(renderJson({ ...report, webhooks: { ...report.webhooks, events, ignored } })) as object;
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    const bad = { ...report, webhooks: { ...report.webhooks, ignored: { count: 1, byStatus: { teapot: 1 } } } };
    expect(validate(JSON.parse(renderJson(bad)))).toBe(false);
  });

  it('rejects what the format does not allow', () => {
    const report = JSON.parse(renderJson(failingReport())) as {
      checks: Record<string, unknown>[];
      verdict: string;
      extra?: unknown;
    };
    const badStatus = structuredClone(report);
    const firstCheck = badStatus.checks[0];
    if (firstCheck) firstCheck['status'] = 'passed';
    expect(validate(badStatus)).toBe(false);
    expect(validate({ ...report, verdict: 'OK' })).toBe(false);
    expect(validate({ ...report, extra: 1 })).toBe(false);
  });

  it('names exactly the stable check ids', () => {
    const defs = schema['$defs'] as { checkId: { enum: string[] } };
    expect(defs.checkId.enum).toEqual([...CHECK_IDS]);
  });

  it('is the report itself, with credential headers masked', () => {
    const text = renderJson(failingReport());
    expect(text).not.toContain(CANARY);
    const parsed = JSON.parse(text) as ReturnType<typeof failingReport>;
    const headers = parsed.checks.find((c) => c.id === 'quote-math')?.evidence[0]?.request.headers;
    expect(headers).toEqual({
      'content-type': 'application/json',
      'x-provider-api-key': '****',
      authorization: 'Bearer ****',
      cookie: '****',
    });
    expect(parsed.checks.map((c) => c.id)).toEqual(failingReport().checks.map((c) => c.id));
  });
});
