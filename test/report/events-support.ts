import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const schema = JSON.parse(readFileSync(new URL('../../spec/events.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

/** spec/events.schema.json compiled strictly (formats checked): true when one line's object is valid. */
export function compileEventSchema(): { valid(line: unknown): boolean; errors(): string } {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return { valid: (line) => validate(line), errors: () => ajv.errorsText(validate.errors) };
}

export type EventLine = { type: string; seq: number; time: string; provider?: string } & Record<string, unknown>;

/**
 * Every line of an NDJSON stream, parsed and checked: each one a JSON object valid against the schema, `seq`
 * counting 1, 2, 3… and the text ending with a newline.
 */
export function parseEventStream(text: string): EventLine[] {
  const schemaCheck = compileEventSchema();
  expect(text.endsWith('\n'), 'the stream ends with a newline').toBe(true);
  const lines = text.slice(0, -1).split('\n');
  return lines.map((raw, i) => {
    const line = JSON.parse(raw) as EventLine;
    expect(schemaCheck.valid(line), `line ${i + 1} ${raw}: ${schemaCheck.errors()}`).toBe(true);
    expect(line.seq).toBe(i + 1);
    return line;
  });
}
