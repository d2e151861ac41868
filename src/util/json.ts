/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The objects of a JSON array; anything else is no objects. */
export const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];

/** The value when it is a string. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
