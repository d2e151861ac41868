import { isRecord } from '../../../util/json.js';

/** One malformed POST /quote body: the run's valid body with one part of the wrong JSON shape. */
export type MalformedQuote =
  /** What is wrong, for messages ("POST /quote with …"), and the JSON body sent. */
  | { what: string; body: unknown }
  /** The same, with bytes that are not a JSON document (sent as they are, and signed as they are under HMAC). */
  | { what: string; raw: string };

/**
 * The malformed-input probe table of POST /quote. Each row breaks one part of a valid RequestQuoteInput where the
 * contract types an object, array or item: an invalid parameter is "400 INVALID_ARGUMENT … invalid parameter or
 * validation failure" (Errors), so only a 4xx ErrorResponse answers it; a 5xx is a crash, a 2xx quoted garbage.
 * A body that is not JSON at all, or none, is the same invalid parameter.
 * Pure data: the errors check sends the rows; a new shape rule gets a row here, not a hand-written probe.
 */
export function malformedQuotes(valid: Record<string, unknown>): MalformedQuote[] {
  const items = Array.isArray(valid['items']) ? valid['items'] : [];
  const first: Record<string, unknown> = isRecord(items[0]) ? items[0] : {};
  const { items: _items, ...withoutItems } = valid;
  const withFirst = (item: unknown): Record<string, unknown> => ({ ...valid, items: [item, ...items.slice(1)] });
  return [
    { what: 'a body that is not JSON', raw: '{"items": [' },
    { what: 'an empty body', raw: '' },
    { what: 'a JSON null body', body: null },
    { what: 'no items', body: withoutItems },
    { what: 'items[0] null', body: withFirst(null) },
    { what: 'items[0].selectedOptions a string', body: withFirst({ ...first, selectedOptions: 'none' }) },
    { what: 'items[0].selectedOptions [null]', body: withFirst({ ...first, selectedOptions: [null] }) },
  ];
}
