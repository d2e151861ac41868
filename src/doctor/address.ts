import { type AddressFinding, type AddressRule, judgeBaseAddress } from '../http/base-address.js';
import { nonPublicHostReason } from '../http/host.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Diagnosis, diagnosis } from './types.js';

/**
 * The address diagnoses (https, base-path), rendered from the base address rules the base-url check and serve's
 * registration judge by. The doctor has no local setting: it reads an address on a local host as a local
 * self-test (http and the host only warned) and any other as the address hosted certification will call.
 */
export function addressDiagnoses(url: URL, spell: SpellSetting): [https: Diagnosis, basePath: Diagnosis] {
  const hostReason = nonPublicHostReason(url.hostname);
  const verdict = judgeBaseAddress(url.href, { local: hostReason !== undefined, spell });
  const broken = (rule: AddressRule) => [...verdict.problems, ...verdict.warnings].find((f) => f.rule === rule);
  const publicHost = broken('public-host');
  const said: Said = { url, spell, use: `use ${spell('baseUrl', verdict.correctedBaseUrl ?? url.href)}` };
  return [
    httpsDiagnosis(said, broken('https'), publicHost && hostReason ? { publicHost, hostReason } : undefined),
    basePathDiagnosis(said, broken('no-health-suffix') ?? broken('no-query')),
  ];
}

/** What the texts name: the address, settings as the caller spells them, and the corrected base URL as a fix. */
interface Said {
  url: URL;
  spell: SpellSetting;
  use: string;
}

const statusOf = (finding: AddressFinding) => (finding.severity === 'problem' ? 'fail' : 'warn');

/** HTTPS on a public host is what hosted certification needs; http is tolerated only for local self-tests. */
function httpsDiagnosis(
  { url, spell, use }: Said,
  http: AddressFinding | undefined,
  local: { publicHost: AddressFinding; hostReason: string } | undefined,
): Diagnosis {
  if (http && local)
    return diagnosis(
      'https',
      statusOf(http),
      `http:// to ${url.hostname}, which ${local.hostReason}: fine for a local self-test (a run with ${spell('local')}), but hosted certification needs a public HTTPS address`,
      'before certifying in the portal, expose the backend on a public https:// address',
    );
  if (http)
    return diagnosis(
      'https',
      statusOf(http),
      'the base URL uses http://; a provider base address must be public HTTPS',
      `serve the API over HTTPS and ${use}`,
    );
  if (local)
    return diagnosis(
      'https',
      statusOf(local.publicHost),
      `https, but the host ${url.hostname} ${local.hostReason}: hosted callers cannot reach it (fine for a local self-test with ${spell('local')})`,
      'before certifying in the portal, use the public address of the backend',
    );
  return diagnosis('https', 'ok', `https on the public host ${url.hostname}`);
}

/** The service appends route paths itself: a base URL ending in /health (or carrying a query) is a mistake. */
function basePathDiagnosis({ url, use }: Said, wrong: AddressFinding | undefined): Diagnosis {
  if (wrong?.rule === 'no-health-suffix')
    return diagnosis(
      'base-path',
      statusOf(wrong),
      'the base URL ends with /health; the service appends /health and the other route paths itself',
      use,
    );
  if (wrong) return diagnosis('base-path', statusOf(wrong), wrong.text, use);
  const path = url.pathname.replace(/\/+$/, '');
  return diagnosis('base-path', 'ok', `routes are requested under ${path || '/'} (e.g. ${path}/provider-info)`);
}
