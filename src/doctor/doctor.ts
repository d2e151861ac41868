import { isIP } from 'node:net';
import { createProviderClient } from '../http/client.js';
import type { HttpResponse } from '../http/types.js';
import { Redactor, urlSecrets } from '../util/redact.js';
import { addressDiagnoses } from './address.js';
import { authDiagnosis, credentialDiagnosis, headerSafe } from './auth.js';
import { frontendDiagnosis, latencyDiagnosis, probeApi, routesDiagnosis } from './http-probes.js';
import { dnsProbe, tcpProbe } from './network.js';
import { tlsProbe } from './tls.js';
import { DIAGNOSIS_IDS, type Diagnosis, type DiagnosisId, type DoctorInput, diagnosis } from './types.js';

const DEFAULT_SLOW_MS = 2_000;
/** Doctor reads only status lines and small bodies; a big body is not worth waiting for. */
const MAX_BODY_BYTES = 256 * 1024;

const HTTP_DIAGNOSES: readonly DiagnosisId[] = ['frontend', 'routes', 'auth', 'latency'];

const defaultPort = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** Every secret-looking part of the input, masked wherever it could surface in a text. */
function redactorFor(input: DoctorInput, url: URL): Redactor {
  return new Redactor([input.credential?.value, ...urlSecrets(url.href), url.username, safeDecode(url.username)]);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The connectivity diagnosis: each layer (address, DNS, TCP, TLS, HTTP, auth) as a finding with a fix.
 * A layer that cannot be reached because a lower one failed is skipped naming it (no cascade of red).
 * Never throws for network problems; `input.baseUrl` must already be an http(s) URL.
 */
export async function runDoctor(input: DoctorInput): Promise<Diagnosis[]> {
  const url = new URL(input.baseUrl);
  const now = input.now ?? (() => new Date());
  const { spell } = input;
  const findings: Diagnosis[] = [...addressDiagnoses(url, spell), credentialDiagnosis(input.credential)];

  const say = (step: string): void => input.progress?.(step);
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0) say(`resolving ${url.hostname} (DNS)`);
  const dns = await dnsProbe(url.hostname, input.timeoutMs, spell);
  findings.push(dns.diagnosis);
  if (dns.resolved) say(`connecting to ${url.hostname}:${defaultPort(url)} (TCP)`);
  const tcp = dns.resolved
    ? await tcpProbe(url.hostname, defaultPort(url), input.timeoutMs, spell)
    : { diagnosis: diagnosis('tcp', 'skip', 'skipped: the host does not resolve (see dns)') };
  findings.push(tcp.diagnosis);

  let blockedBy: string | undefined =
    tcp.diagnosis.status === 'ok'
      ? undefined
      : dns.resolved
        ? 'no TCP connection (see tcp)'
        : 'the host does not resolve (see dns)';
  if (url.protocol !== 'https:') {
    findings.push(diagnosis('tls', 'skip', 'plain http: no TLS'));
  } else if (blockedBy || !tcp.address) {
    findings.push(diagnosis('tls', 'skip', `skipped: ${blockedBy ?? 'no TCP connection (see tcp)'}`));
  } else {
    say(`TLS handshake with ${url.hostname}`);
    const tls = await tlsProbe(url.hostname, tcp.address, defaultPort(url), input.timeoutMs, now, spell);
    findings.push(tls.diagnosis);
    if (!tls.trusted) blockedBy = 'the TLS certificate is refused (see tls)';
  }

  if (blockedBy) {
    for (const id of HTTP_DIAGNOSES) findings.push(diagnosis(id, 'skip', `skipped: ${blockedBy}`));
  } else {
    const basePathWrong = findings.some((f) => f.id === 'base-path' && f.status === 'fail');
    say('asking the API: GET on the base address, /provider-info, /health, /catalog (HTTP)');
    findings.push(...(await httpDiagnoses(input, url, basePathWrong)));
  }
  const redactor = redactorFor(input, url);
  return DIAGNOSIS_IDS.flatMap((id) => findings.filter((f) => f.id === id)).map((f) => ({
    ...f,
    detail: redactor.text(f.detail),
    ...(f.fix !== undefined ? { fix: redactor.text(f.fix) } : {}),
  }));
}

async function httpDiagnoses(input: DoctorInput, url: URL, basePathWrong: boolean): Promise<Diagnosis[]> {
  const credential = input.credential?.value ?? '';
  const redactor = redactorFor(input, url);
  const clientFor = (baseUrl: string) =>
    createProviderClient(
      {
        baseUrl,
        authMethod: input.authMethod ?? 'API_KEY',
        credential,
        timeoutMs: input.timeoutMs,
        maxBodyBytes: MAX_BODY_BYTES,
      },
      { redactor, spell: input.spell },
    );
  const client = clientFor(input.baseUrl);
  // A credential with a line break cannot be sent; probe without it (routes still answer, e.g. 401).
  const auth =
    input.authMethod && input.credential && headerSafe(credential)
      ? ({ kind: 'configured' } as const)
      : ({ kind: 'none' } as const);
  try {
    const probes = await probeApi(client, auth);
    const probeCandidate = async (baseUrl: string): Promise<HttpResponse | undefined> => {
      const candidate = clientFor(baseUrl);
      try {
        const answers = await Promise.all(
          ['/provider-info', '/health'].map((path) => candidate.send({ method: 'GET', path, auth })),
        );
        return answers.find(
          (o): o is HttpResponse => o.kind === 'response' && o.status !== 404 && o.bodyKind !== 'html',
        );
      } finally {
        await candidate.close();
      }
    };
    const routes = await routesDiagnosis(probes, input.baseUrl, probeCandidate, input.spell);
    // Under a wrong base path the probes hit no provider route, so what they say about auth means nothing.
    const wrongPath = basePathWrong
      ? 'the base path is wrong (see base-path)'
      : routes.status === 'fail'
        ? 'the provider routes were not found (see routes)'
        : undefined;
    return [
      frontendDiagnosis(probes),
      routes,
      wrongPath
        ? diagnosis('auth', 'skip', `skipped: ${wrongPath}`)
        : await authDiagnosis(probes, client, input.authMethod, input.credential, input.spell),
      latencyDiagnosis(probes, input.slowMs ?? DEFAULT_SLOW_MS),
    ];
  } finally {
    await client.close();
  }
}

/** Exit code of a diagnosis: 1 when anything failed, else 0 (warnings never fail). */
export const doctorExitCode = (findings: readonly Diagnosis[]): 0 | 1 =>
  findings.some((f) => f.status === 'fail') ? 1 : 0;
