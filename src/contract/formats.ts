import type { Format } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { ISO_TIMESTAMP_FORMAT, isIsoTimestamp } from './timestamp.js';

/**
 * Every format the contract's validators may name: ajv-formats' full set plus the contract's ISO 8601
 * date-time. The run-time compiler registers these very objects and the precompiled validators import
 * them, so both check formats with the same code.
 */
export const contractFormats: Readonly<Record<string, Format>> = {
  ...fullFormats,
  [ISO_TIMESTAMP_FORMAT]: { type: 'string', validate: isIsoTimestamp },
};
