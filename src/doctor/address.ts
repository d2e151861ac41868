import { nonPublicHostReason } from '../http/host.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Diagnosis, diagnosis } from './types.js';

/** HTTPS on a public host is what hosted certification needs; http is tolerated only for local self-tests. */
export function httpsDiagnosis(url: URL, spell: SpellSetting): Diagnosis {
  const hostReason = nonPublicHostReason(url.hostname);
  if (url.protocol === 'http:') {
    if (hostReason) {
      return diagnosis(
        'https',
        'warn',
        `http:// to ${url.hostname}, which ${hostReason}: fine for a local self-test (a run with ${spell('local')}), but hosted certification needs a public HTTPS address`,
        'before certifying in the portal, expose the backend on a public https:// address',
      );
    }
    return diagnosis(
      'https',
      'fail',
      `the base URL uses http://; a provider base address must be public HTTPS`,
      `serve the API over HTTPS and use ${spell('baseUrl', `https://${url.host}${url.pathname}`)}`,
    );
  }
  if (hostReason) {
    return diagnosis(
      'https',
      'warn',
      `https, but the host ${url.hostname} ${hostReason}: hosted callers cannot reach it (fine for a local self-test with ${spell('local')})`,
      'before certifying in the portal, use the public address of the backend',
    );
  }
  return diagnosis('https', 'ok', `https on the public host ${url.hostname}`);
}

/** The service appends route paths itself: a base URL ending in /health (or carrying a query) is a mistake. */
export function basePathDiagnosis(url: URL, spell: SpellSetting): Diagnosis {
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/health$/i.test(path)) {
    const parent = path.slice(0, -'/health'.length);
    return diagnosis(
      'base-path',
      'fail',
      `the base URL ends with /health; the service appends /health and the other route paths itself`,
      `use ${spell('baseUrl', `${url.origin}${parent || ''}`)}`,
    );
  }
  if (url.search || url.hash) {
    return diagnosis(
      'base-path',
      'warn',
      'the base URL carries a query string or fragment; route paths are appended to it, so it is usually a mistake',
      `use ${spell('baseUrl', `${url.origin}${path}`)}`,
    );
  }
  return diagnosis('base-path', 'ok', `routes are requested under ${path || '/'} (e.g. ${path}/provider-info)`);
}
