import type { AuthOverride, HttpOutcome, HttpResponse, ProviderClient } from '../http/types.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Diagnosis, diagnosis } from './types.js';

/** Routes every profile requires: if none of them exists, the base path is wrong. */
export const ROUTES = ['/provider-info', '/health', '/catalog'] as const;
export type Route = (typeof ROUTES)[number];

export interface Probes {
  /** GET on the base URL itself. */
  root: HttpOutcome;
  routes: Record<Route, HttpOutcome>;
}

export async function probeApi(client: ProviderClient, auth: AuthOverride): Promise<Probes> {
  const get = (path: string): Promise<HttpOutcome> => client.send({ method: 'GET', path, auth });
  const [root, info, health, catalog] = await Promise.all([
    get(''),
    get('/provider-info'),
    get('/health'),
    get('/catalog'),
  ]);
  return { root, routes: { '/provider-info': info, '/health': health, '/catalog': catalog } };
}

const isHtml = (o: HttpOutcome): o is HttpResponse =>
  o.kind === 'response' && (o.bodyKind === 'html' || /text\/html/i.test(o.contentType));
const responded = (o: HttpOutcome): o is HttpResponse => o.kind === 'response';

/** An HTML answer means a website or frontend address was entered instead of the API's. */
export function frontendDiagnosis(probes: Probes): Diagnosis {
  const info = probes.routes['/provider-info'];
  if (isHtml(info)) {
    return diagnosis(
      'frontend',
      'fail',
      `GET /provider-info answered an HTML page (${info.status}, content-type ${info.contentType || 'none'}): this is a website, not the provider API`,
      'use the base address of the provider backend (the prefix under which /provider-info answers JSON), not the website, portal or frontend address',
    );
  }
  if (!responded(info) && !responded(probes.root)) return diagnosis('frontend', 'skip', 'no HTTP answer (see routes)');
  if (isHtml(probes.root))
    return diagnosis('frontend', 'ok', 'the base address itself serves an HTML page, but /provider-info does not');
  return diagnosis('frontend', 'ok', 'no HTML pages: the address answers like an API');
}

const statusList = (routes: Probes['routes']): string =>
  ROUTES.map((r) => {
    const o = routes[r];
    return `${r} ${o.kind === 'response' ? o.status : o.failure}`;
  }).join(' · ');

/** Probe a candidate base address: does any required route exist there (not 404, not HTML)? */
export type CandidateProbe = (baseUrl: string) => Promise<HttpResponse | undefined>;

/** Other plausible base addresses: `<base>/api`, the parent path, and `<origin>/api`. */
export function candidateBases(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const candidates = [`${url.origin}${path}/api`];
  if (path !== '') candidates.push(`${url.origin}${path.slice(0, path.lastIndexOf('/'))}`, `${url.origin}/api`);
  return [...new Set(candidates)].filter((c) => c !== `${url.origin}${path}`);
}

/** 404 on every route means a wrong base path; transport failures are named in words. */
export async function routesDiagnosis(
  probes: Probes,
  baseUrl: string,
  probeCandidate: CandidateProbe,
  spell: SpellSetting,
): Promise<Diagnosis> {
  const outcomes = ROUTES.map((r) => [r, probes.routes[r]] as const);
  const failures = outcomes.filter(([, o]) => o.kind === 'failure');
  if (failures.length > 0) {
    const detail = failures.map(([r, o]) => `GET ${r}: ${o.kind === 'failure' ? o.message : ''}`).join('; ');
    return diagnosis(
      'routes',
      'fail',
      detail,
      `make the base address answer the provider routes directly (no redirects, within ${spell('timeout')})`,
    );
  }
  const statuses = outcomes.map(([, o]) => (o.kind === 'response' ? o.status : 0));
  if (statuses.every((s) => s === 404)) {
    for (const candidate of candidateBases(baseUrl)) {
      const answer = await probeCandidate(candidate);
      if (answer) {
        return diagnosis(
          'routes',
          'fail',
          `GET /provider-info, /health and /catalog all answered 404: the base path is wrong; ${candidate} answers (GET /provider-info ${answer.status})`,
          `use ${spell('baseUrl', candidate)}`,
        );
      }
    }
    return diagnosis(
      'routes',
      'fail',
      'GET /provider-info, /health and /catalog all answered 404: the base path is wrong (nothing answers at <base>/api, the parent path or <origin>/api either)',
      'use the prefix under which the backend serves /provider-info; the service appends the route paths itself',
    );
  }
  const missing = outcomes
    .filter(([, o]) => o.kind === 'response' && (o.status === 404 || o.status >= 500))
    .map(([r, o]) => `${r} ${o.kind === 'response' ? o.status : ''}`);
  if (missing.length > 0) {
    return diagnosis(
      'routes',
      'warn',
      `${statusList(probes.routes)}: ${missing.join(', ')} did not answer properly`,
      'every profile requires GET /provider-info, /health and /catalog; implement the missing routes (provcert run shows the details)',
    );
  }
  return diagnosis('routes', 'ok', statusList(probes.routes));
}

/** Answers slower than the threshold are a warning: hosted callers use time-outs. */
export function latencyDiagnosis(probes: Probes, slowMs: number): Diagnosis {
  const timed = [['(base URL)', probes.root] as const, ...ROUTES.map((r) => [r, probes.routes[r]] as const)].filter(
    ([, o]) => o.kind === 'response',
  );
  if (timed.length === 0) return diagnosis('latency', 'skip', 'no HTTP answer to time (see routes)');
  const slow = timed.filter(([, o]) => o.durationMs > slowMs);
  if (slow.length > 0) {
    return diagnosis(
      'latency',
      'warn',
      `slow answers (over ${slowMs} ms): ${slow.map(([r, o]) => `GET ${r} ${o.durationMs} ms`).join(', ')}`,
      'make the backend answer faster (cold starts, database queries, distance); the hosted service calls with time-outs',
    );
  }
  const [route, slowest] = timed.reduce((a, b) => (b[1].durationMs > a[1].durationMs ? b : a));
  return diagnosis('latency', 'ok', `slowest answer ${slowest.durationMs} ms (GET ${route})`);
}
