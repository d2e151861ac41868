import { lookup } from 'node:dns/promises';
import { connect, isIP } from 'node:net';
import { nonPublicHostReason } from '../http/host.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Diagnosis, diagnosis } from './types.js';

const bareHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface DnsResult {
  diagnosis: Diagnosis;
  resolved: boolean;
}

/** Resolve the host the way the client will (node:dns lookup, i.e. the system resolver). */
export async function dnsProbe(hostname: string, timeoutMs: number, spell: SpellSetting): Promise<DnsResult> {
  const host = bareHost(hostname);
  if (isIP(host))
    return { diagnosis: diagnosis('dns', 'ok', `${host} is an IP address; no lookup needed`), resolved: true };
  try {
    const answer = await withTimeout(lookup(host, { all: true }), timeoutMs);
    if (answer === 'timeout') {
      return {
        diagnosis: diagnosis(
          'dns',
          'fail',
          `no DNS answer for ${host} within ${timeoutMs} ms`,
          'check the network and resolver of this machine, then the DNS records of the host',
        ),
        resolved: false,
      };
    }
    const addresses = answer.map((a) => a.address);
    const privateOnly =
      nonPublicHostReason(host) === undefined && addresses.every((a) => nonPublicHostReason(a) !== undefined);
    if (privateOnly) {
      return {
        diagnosis: diagnosis(
          'dns',
          'warn',
          `${host} resolves only to non-public addresses (${addresses.join(', ')}): hosted callers cannot reach it`,
          'publish a public DNS record for the API host before certifying in the portal',
        ),
        resolved: true,
      };
    }
    return { diagnosis: diagnosis('dns', 'ok', `${host} resolves to ${addresses.join(', ')}`), resolved: true };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const detail =
      code === 'ENOTFOUND'
        ? `${host} does not resolve (ENOTFOUND)`
        : code === 'EAI_AGAIN'
          ? `the DNS lookup of ${host} failed temporarily (EAI_AGAIN): the resolver is unreachable or the name has no answer yet`
          : `the DNS lookup of ${host} failed (${code})`;
    return {
      diagnosis: diagnosis(
        'dns',
        'fail',
        detail,
        `check the spelling of the host in ${spell('baseUrl')} and that its DNS record is public`,
      ),
      resolved: false,
    };
  }
}

export interface TcpResult {
  diagnosis: Diagnosis;
  /** The address the connection reached, for the TLS probe. */
  address?: string;
}

/** Open (and close) a TCP connection to host:port, trying IPv4 and IPv6 like the HTTP client does. */
export function tcpProbe(hostname: string, port: number, timeoutMs: number, spell: SpellSetting): Promise<TcpResult> {
  const host = bareHost(hostname);
  const target = `${hostname}:${port}`;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host, port, autoSelectFamily: true });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({
        diagnosis: diagnosis(
          'tcp',
          'fail',
          `no answer within ${timeoutMs} ms when connecting to ${target}`,
          `a firewall drops the connection, or the address is not reachable from here; check the host and port, or raise ${spell('timeout')}`,
        ),
      });
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      const address = socket.remoteAddress;
      const ms = Math.round(performance.now() - started);
      socket.destroy();
      resolve({
        diagnosis: diagnosis('tcp', 'ok', `connected to ${address ?? host}:${port} in ${ms} ms`),
        ...(address ? { address } : {}),
      });
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      const code = e.code ?? 'error';
      if (code === 'ECONNREFUSED') {
        resolve({
          diagnosis: diagnosis(
            'tcp',
            'fail',
            `connection to ${target} refused: nothing listens there`,
            `start the provider backend, or fix the port in ${spell('baseUrl')} (https defaults to 443, http to 80)`,
          ),
        });
      } else {
        resolve({
          diagnosis: diagnosis(
            'tcp',
            'fail',
            `cannot connect to ${target} (${code})`,
            `check the host and port in ${spell('baseUrl')} and that the backend is reachable from this network`,
          ),
        });
      }
    });
  });
}
