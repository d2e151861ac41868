import { isRecord } from '../../../util/json.js';

/** One malformed POST /actions body: the run's valid CreateActionInput with one part of the wrong JSON shape. */
export type MalformedAction =
  /** What is wrong, for messages ("POST /actions with …"), and the JSON body sent. */
  | { what: string; label: string; body: unknown }
  /** The same, with bytes that are not a JSON document (sent as they are, and signed as they are under HMAC). */
  | { what: string; label: string; raw: string };

/**
 * The malformed-input probe table of POST /actions, beside malformed-quote's for POST /quote. Each row breaks one
 * part of a valid CreateActionInput where the contract types an object, array or item ("items | array of
 * { offeringId string, quantity integer } (selectedOptions per quote item shape)"); every other field keeps its
 * valid value (a fresh quote, userConfirmed true, the row's own idempotencyKey), so only the broken part can be
 * refused. An invalid parameter is "400 INVALID_ARGUMENT … invalid parameter or validation failure" (Errors): only a
 * 4xx ErrorResponse answers it; a 5xx is a crash, a 2xx created an order from garbage. A body that is not JSON at
 * all, or none, is the same invalid parameter. Pure data: action-validation sends the rows.
 */
export function malformedActions(valid: Record<string, unknown>): MalformedAction[] {
  const items = Array.isArray(valid['items']) ? valid['items'] : [];
  const first: Record<string, unknown> = isRecord(items[0]) ? items[0] : {};
  const withFirst = (item: unknown): Record<string, unknown> => ({ ...valid, items: [item, ...items.slice(1)] });
  return [
    { what: 'a body that is not JSON', label: 'not-json', raw: '{"quoteId": [' },
    { what: 'an empty body', label: 'empty', raw: '' },
    { what: 'a JSON null body', label: 'null-body', body: null },
    { what: 'items an object', label: 'items-object', body: { ...valid, items: { ...first } } },
    { what: 'items a string', label: 'items-string', body: { ...valid, items: 'none' } },
    { what: 'items[0] null', label: 'item-null', body: withFirst(null) },
    {
      what: 'items[0].selectedOptions a string',
      label: 'options-string',
      body: withFirst({ ...first, selectedOptions: 'none' }),
    },
    {
      what: 'items[0].selectedOptions an object',
      label: 'options-object',
      body: withFirst({ ...first, selectedOptions: {} }),
    },
    {
      what: 'items[0].selectedOptions [null]',
      label: 'options-null',
      body: withFirst({ ...first, selectedOptions: [null] }),
    },
  ];
}
