import type { CheckId } from '../model/check-ids.js';
import type { RequirementId } from '../model/findings.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { canonicalDigest } from './canonical.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';

/** An in-toto ResourceDescriptor (v1): what a statement names, by digest where it has bytes. */
export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  annotations?: Record<string, unknown>;
}

export type TestResult = 'PASSED' | 'WARNED' | 'FAILED';

/** The test-result v0.1 predicate. */
export interface TestResultPredicate {
  result: TestResult;
  configuration: ResourceDescriptor[];
  url?: string;
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: TestResultPredicate;
}

/**
 * The provider's configuration a certificate is valid for: what the certification depended on. Its canonical JSON's
 * sha256 is the subject's digest, so anyone holding the same configuration derives the same digest.
 */
export interface ProviderConfiguration {
  /** The provider's slug (registered, or from provider-info for a local run; absent when it could not be read). */
  slug?: string;
  baseUrl: string;
  authMethod: string;
  /** Keyed hash of the credential (serve's fingerprint); never the credential. */
  credentialFingerprint?: string;
  capabilities: string[];
  fulfillment?: string;
  /** serve's configuration version (bumped by every change that needs recertification). */
  configVersion?: number;
}

/** The names of the configuration's resource descriptors, read back by the verifier. */
export const DESCRIPTOR = {
  contract: 'spec/openapi.yaml',
  catalog: 'spec/requirements.yaml',
  tool: 'provcert',
  profile: 'profile',
  provider: 'provider-configuration',
  settings: 'run-settings',
  run: 'run',
} as const;

/** Run settings that change what is tested (the rest, like report files, do not). */
export const TESTED_SETTINGS = [
  'profile',
  'capabilities',
  'fulfillment',
  'local',
  'timeout',
  'webhookTimeout',
  'maxExpiryWait',
  'only',
  'skip',
  'seed',
  'explore',
  'strict',
] as const;

export interface StatementInput {
  report: RunReport;
  provider: ProviderConfiguration;
  /** The profile the run certified (from provider-info); absent when it could not be told. */
  profile?: string;
  contractVersion: string;
  specDigest: string;
  catalogDigest: string;
  toolVersion: string;
  /** Settings of the issuer beyond the run's (serve's webhookSecretOverlapSeconds). */
  extraSettings?: Record<string, unknown>;
  issuedAt: string;
  /** Who issued it: serve's address, or "local run". */
  issuer: string;
  /** The certification's id at the issuer, when it keeps one. */
  certificationId?: string;
}

/** Canonical name of a provider configuration: trims what is absent and sorts the capabilities. */
export function normalizeConfiguration(p: ProviderConfiguration): ProviderConfiguration {
  return {
    ...(p.slug !== undefined ? { slug: p.slug } : {}),
    baseUrl: p.baseUrl,
    authMethod: p.authMethod,
    ...(p.credentialFingerprint !== undefined ? { credentialFingerprint: p.credentialFingerprint } : {}),
    capabilities: [...new Set(p.capabilities)].sort(),
    ...(p.fulfillment !== undefined ? { fulfillment: p.fulfillment } : {}),
    ...(p.configVersion !== undefined ? { configVersion: p.configVersion } : {}),
  };
}

/** The sha256 a certificate names a provider configuration by. */
export const configurationDigest = (p: ProviderConfiguration): string => canonicalDigest(normalizeConfiguration(p));

type Outcome = 'passed' | 'warned' | 'waived' | 'failed';
const RANK: Record<Outcome, number> = { passed: 0, warned: 1, waived: 2, failed: 3 };
const worse = (a: Outcome | undefined, b: Outcome): Outcome => (a === undefined || RANK[b] > RANK[a] ? b : a);

/** How one check that ran ended, and how each requirement it verifies ended with it. */
function checkOutcome(c: CheckResult): { check: Outcome; requirements: Map<RequirementId, Outcome> } {
  const failedByCheck = c.status === 'fail' || c.status === 'error' || c.status === 'untested';
  const failed: Outcome = c.waiver !== undefined && c.status !== 'untested' ? 'waived' : 'failed';
  const byReq = new Map<RequirementId, Outcome>(c.requirements.map((r) => [r, 'passed']));
  for (const f of c.findings)
    byReq.set(f.requirement, worse(byReq.get(f.requirement), f.severity === 'fail' ? failed : 'warned'));
  for (const u of c.untested ?? []) byReq.set(u.requirement, worse(byReq.get(u.requirement), 'failed'));
  const primary = c.requirements[0];
  if (failedByCheck && primary !== undefined && ![...byReq.values()].some((o) => RANK[o] >= RANK.waived))
    byReq.set(primary, failed);
  const warned = c.findings.some((f) => f.severity === 'warn') || (c.warnings?.length ?? 0) > 0;
  return { check: failedByCheck ? failed : warned ? 'warned' : 'passed', requirements: byReq };
}

/** The tests of a run, as test-result lists: `check:<id>` and `requirement:<ID>`; waived ones `waived:…` among the warned. */
export function testLists(report: RunReport): Pick<TestResultPredicate, 'passedTests' | 'warnedTests' | 'failedTests'> {
  const checks = new Map<string, Outcome>();
  const requirements = new Map<string, Outcome>();
  for (const c of report.checks) {
    if (c.status === 'skip') continue;
    const o = checkOutcome(c);
    checks.set(c.id, o.check);
    for (const [r, ro] of o.requirements) requirements.set(r, worse(requirements.get(r), ro));
  }
  // Not run is never passed: checks an interruption or the selection kept out are failed tests.
  for (const id of [...(report.notRun ?? []), ...(report.leftOut ?? []).map((l) => l.id)]) checks.set(id, 'failed');
  const lists = { passedTests: [] as string[], warnedTests: [] as string[], failedTests: [] as string[] };
  const put = (name: string, o: Outcome): void => {
    if (o === 'passed') lists.passedTests.push(name);
    else if (o === 'warned') lists.warnedTests.push(name);
    else if (o === 'waived') lists.warnedTests.push(`waived:${name}`);
    else lists.failedTests.push(name);
  };
  for (const [id, o] of checks) put(`check:${id}`, o);
  for (const [id, o] of [...requirements].sort(([a], [b]) => (a < b ? -1 : 1))) put(`requirement:${id}`, o);
  return lists;
}

/** The result the lists allow: FAILED with a failed test or a run that did not pass, WARNED with a warned one. */
export function resultOf(
  verdictPassed: boolean,
  lists: Pick<TestResultPredicate, 'warnedTests' | 'failedTests'>,
): TestResult {
  if (!verdictPassed || lists.failedTests.length > 0) return 'FAILED';
  return lists.warnedTests.length > 0 ? 'WARNED' : 'PASSED';
}

/** The in-toto Statement of one certification run. */
export function buildStatement(input: StatementInput): Statement {
  const { report } = input;
  const provider = normalizeConfiguration(input.provider);
  const lists = testLists(report);
  // A PASS verdict with a failed test cannot happen; FAILED then, should a report ever say so.
  const result = resultOf(report.verdict === 'PASS', lists);
  const inputs = report.inputs as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...(input.extraSettings ?? {}) };
  for (const key of TESTED_SETTINGS) if (inputs[key] !== undefined && inputs[key] !== null) settings[key] = inputs[key];
  const skipped: Partial<Record<CheckId, string>> = {};
  for (const c of report.checks) if (c.status === 'skip') skipped[c.id] = c.message;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      { name: `provider:${provider.slug ?? provider.baseUrl}`, digest: { sha256: configurationDigest(provider) } },
    ],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result,
      configuration: [
        {
          name: DESCRIPTOR.contract,
          uri: `urn:provider-integration-contract:${input.contractVersion}`,
          digest: { sha256: input.specDigest },
          annotations: { contractVersion: input.contractVersion },
        },
        { name: DESCRIPTOR.catalog, digest: { sha256: input.catalogDigest } },
        {
          name: DESCRIPTOR.tool,
          uri: `pkg:npm/provcert@${input.toolVersion}`,
          annotations: { version: input.toolVersion },
        },
        {
          name: DESCRIPTOR.profile,
          uri: `urn:provcert:profile:${input.profile ?? 'unknown'}`,
          annotations: { profile: input.profile ?? null },
        },
        {
          name: DESCRIPTOR.provider,
          digest: { sha256: configurationDigest(provider) },
          annotations: { ...provider },
        },
        { name: DESCRIPTOR.settings, digest: { sha256: canonicalDigest(settings) }, annotations: settings },
        {
          name: DESCRIPTOR.run,
          uri: `urn:provcert:certification:${input.certificationId ?? 'local'}`,
          annotations: {
            issuer: input.issuer,
            issuedAt: input.issuedAt,
            startedAt: report.startedAt,
            finishedAt: report.finishedAt,
            verdict: report.verdict,
            skipped,
          },
        },
      ],
      ...lists,
    },
  };
}
