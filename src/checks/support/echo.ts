import { NO_SECRETS, Redactor } from '../../util/redact.js';

/** Beyond this many places one answer's echo is summed up: the first few say enough. */
const MAX_PLACES = 3;

/** Where in one answer a value was found: header names and JSON paths, never the value. */
export interface EchoPlaces {
  places: string[];
}

const jsonKey = (key: string): string => (/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/**
 * Finds `values` in an answer, raw or in any form provcert's masker knows (JSON-escaped, URL-encoded, base64,
 * hex, split across lines, pieces that together show half of it): the masker is the detector, so whatever it
 * would hide from a report counts as repeated. Returns the places (a header's name, a JSON path, or "its body").
 */
export function findEcho(
  answer: { headers: Record<string, string>; text: string; json?: unknown },
  values: readonly string[],
): string[] {
  const detector = new Redactor(values);
  // The masker also hides any URL's password; only what the values themselves cause counts.
  const holds = (text: string): boolean => detector.text(text) !== NO_SECRETS.text(text);
  const places: string[] = [];
  for (const [name, value] of Object.entries(answer.headers)) if (holds(value)) places.push(`header ${name}`);
  if (holds(answer.text)) {
    const paths = answer.json === undefined ? [] : jsonPlaces(answer.json, '$', holds);
    // A loop, not a spread: a hostile body can hold the value in any number of places.
    for (const p of paths.length > 0 ? paths.map((path) => `body at ${path}`) : ['its body']) places.push(p);
  }
  // Pieces each too short to give a value away, spread over the answer, that together rebuild it (issue 32).
  if (places.length === 0 && detector.revealsTogether([...Object.values(answer.headers), answer.text]))
    places.push('pieces spread over its headers and body that together rebuild it');
  return places.length > MAX_PLACES ? [...places.slice(0, MAX_PLACES), `${places.length - MAX_PLACES} more`] : places;
}

/** JSON paths of the keys and string values that hold a value. The client bounded the depth already. */
function jsonPlaces(value: unknown, path: string, holds: (text: string) => boolean): string[] {
  if (typeof value === 'string') return holds(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonPlaces(item, `${path}[${i}]`, holds));
  if (typeof value !== 'object' || value === null) return [];
  // A key that holds a value is named by where it is, never spelled out.
  return Object.entries(value).flatMap(([key, item]) =>
    holds(key) ? [`${path} (one of its keys)`] : jsonPlaces(item, path + jsonKey(key), holds),
  );
}
