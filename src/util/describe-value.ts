/** The JSON type of a value, integers apart from other numbers. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `string "12.50"`, `null`, `object {…}` — short enough for one line. */
export function describeValue(value: unknown): string {
  const type = typeName(value);
  if (value === null || value === undefined) return type;
  if (type === 'object') return 'object {…}';
  if (type === 'array') return `array of ${(value as unknown[]).length}`;
  // Not JSON values, but a library caller can pass them: named, never stringified (BigInt would throw).
  if (type === 'bigint' || type === 'symbol' || type === 'function') return type;
  // Cut before quoting: a hostile 10 MB string is explained in constant time.
  const json = JSON.stringify(typeof value === 'string' && value.length > 80 ? value.slice(0, 80) : value);
  return `${type} ${json.length > 60 ? `${json.slice(0, 57)}…"` : json}`;
}
