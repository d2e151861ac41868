import type { AuthMethod } from '../model/contract-constants.js';
import type { SpellSetting } from '../model/setting-speller.js';

export type DiagnosisStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** Stable ids, in the order diagnoses are reported (network stack first, then the API on top of it). */
export const DIAGNOSIS_IDS = [
  'https',
  'base-path',
  'dns',
  'tcp',
  'tls',
  'frontend',
  'routes',
  'auth',
  'credential',
  'latency',
] as const;
export type DiagnosisId = (typeof DIAGNOSIS_IDS)[number];

/** One diagnosis: what was looked at, what was seen, and (for warn/fail) what to do about it. */
export interface Diagnosis {
  id: DiagnosisId;
  status: DiagnosisStatus;
  title: string;
  detail: string;
  fix?: string;
}

/** Where the credential came from, named in texts (never its value). */
export interface DoctorCredential {
  value: string;
  /** e.g. "PROVIDER_API_KEY" or "the file key.txt". */
  source: string;
}

export interface DoctorInput {
  baseUrl: string;
  /** The configured method; when absent, every method is tried and the one the provider accepts is named. */
  authMethod?: AuthMethod;
  /** Absent: the auth findings are skipped with a fix that says how to provide one. */
  credential?: DoctorCredential;
  /** Per request / connection attempt. */
  timeoutMs: number;
  /** Answers slower than this are a warning (default 2000 ms). */
  slowMs?: number;
  /** Wall clock for certificate validity (injected for tests). */
  now?: () => Date;
  /** Told before each layer is probed ("resolving api.example.com (DNS)"), so a slow probe is never silent. */
  progress?: (step: string) => void;
  /** How a fix names a setting for the caller's users (the cli: its flags). */
  spell: SpellSetting;
}

const DIAGNOSIS_TITLES: Readonly<Record<DiagnosisId, string>> = {
  https: 'HTTPS on a public address',
  'base-path': 'Base path',
  dns: 'DNS resolution',
  tcp: 'TCP connect',
  tls: 'TLS certificate',
  frontend: 'Provider API, not a website',
  routes: 'Routes under the base path',
  auth: 'Auth header',
  credential: 'Credential whitespace',
  latency: 'Response time',
};

export const diagnosis = (id: DiagnosisId, status: DiagnosisStatus, detail: string, fix?: string): Diagnosis => ({
  id,
  status,
  title: DIAGNOSIS_TITLES[id],
  detail,
  ...(fix !== undefined && status !== 'ok' ? { fix } : {}),
});
