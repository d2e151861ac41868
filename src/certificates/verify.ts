import type { KeyObject } from 'node:crypto';
import { PROFILES } from '../model/contract-constants.js';
import { canonicalDigest } from './canonical.js';
import { type DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, signatureVerifies, strictBase64 } from './dsse.js';
import type { Shipped } from './shipped.js';
import {
  configurationDigest,
  DESCRIPTOR,
  type ProviderConfiguration,
  type ResourceDescriptor,
  resultOf,
  STATEMENT_TYPE,
  type Statement,
  TEST_RESULT_PREDICATE,
  type TestResult,
} from './statement.js';

/** A key the verifier trusts, with the time it was allowed to sign in (a retired key: until `validUntil`). */
export interface TrustedKey {
  kid: string;
  key: KeyObject;
  validFrom?: string;
  validUntil?: string;
}

/** A check the catalog requires of a configuration, with the requirements it verifies. */
export interface RequiredCheck {
  id: string;
  requirements: readonly string[];
}

export interface VerifyPolicy {
  keys: readonly TrustedKey[];
  shipped: Shipped;
  /** The checks the shipped catalog requires for a provider's profile, auth method and capabilities. */
  requiredChecks(config: { profile: string; authMethod: string; capabilities: string[] }): RequiredCheck[];
  now: Date;
  /** Refuse a certificate issued longer ago than this. */
  maxAgeMs?: number;
  /** Refuse a certificate for another configuration than this digest (the provider's current one). */
  configDigest?: string;
  /** Checks (or requirement ids) whose waiver the policy allows (default: none). */
  allowWaivers?: readonly string[];
}

export interface ValidCertificate {
  valid: true;
  statement: Statement;
  keyid: string;
  subject: { name: string; sha256: string };
  result: TestResult;
  issuedAt: string;
  provider: ProviderConfiguration;
}

export type Verification = ValidCertificate | { valid: false; reason: string };

/** Refused, naming the first reason. */
class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason);
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const HEX64 = /^[0-9a-f]{64}$/;

function envelopeOf(input: unknown): DsseEnvelope {
  if (!isRecord(input)) return refuse('the certificate is not a DSSE envelope (a JSON object)');
  const { payloadType, payload, signatures } = input;
  if (payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return refuse(`payloadType is ${JSON.stringify(payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}`);
  if (typeof payload !== 'string') return refuse('payload is not a base64 string');
  if (!Array.isArray(signatures) || signatures.length === 0) return refuse('the envelope has no signature');
  for (const s of signatures)
    if (!isRecord(s) || typeof s['keyid'] !== 'string' || typeof s['sig'] !== 'string')
      return refuse('a signature is not { keyid, sig } strings');
  return { payloadType, payload, signatures: signatures as DsseEnvelope['signatures'] };
}

/** The trusted key whose signature verifies the envelope: the first reason when none does. */
function signedBy(envelope: DsseEnvelope, body: Buffer, keys: readonly TrustedKey[]): TrustedKey {
  let problem: string | undefined;
  for (const { keyid, sig } of envelope.signatures) {
    const trusted = keys.find((k) => k.kid === keyid);
    if (!trusted) {
      problem ??= `signed by key id ${JSON.stringify(keyid)}, which is not among the trusted keys`;
      continue;
    }
    const bytes = strictBase64(sig);
    if (bytes && signatureVerifies(envelope, body, bytes, trusted.key)) return trusted;
    problem = `the signature of key ${keyid} does not verify (the payload or the signature was altered, or another key signed it)`;
  }
  return refuse(problem ?? 'the envelope has no signature');
}

function descriptor(configuration: ResourceDescriptor[], name: string): ResourceDescriptor {
  const found = configuration.filter((d) => d.name === name);
  if (found.length !== 1)
    return refuse(`the configuration names ${name} ${found.length === 0 ? 'nowhere' : 'more than once'}`);
  return found[0] as ResourceDescriptor;
}

function statementOf(body: Buffer): Statement {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return refuse('the payload is not JSON');
  }
  if (!isRecord(parsed)) return refuse('the payload is not an in-toto Statement (a JSON object)');
  if (parsed['_type'] !== STATEMENT_TYPE) return refuse(`_type is not ${STATEMENT_TYPE}`);
  if (parsed['predicateType'] !== TEST_RESULT_PREDICATE) return refuse(`predicateType is not ${TEST_RESULT_PREDICATE}`);
  const subject = parsed['subject'];
  if (!Array.isArray(subject) || subject.length !== 1) return refuse('the statement must name exactly one subject');
  const [only] = subject as unknown[];
  if (!isRecord(only) || typeof only['name'] !== 'string' || !isRecord(only['digest']))
    return refuse('the subject has no name and digest');
  if (typeof only['digest']['sha256'] !== 'string' || !HEX64.test(only['digest']['sha256']))
    return refuse('the subject digest is not a sha256');
  const p = parsed['predicate'];
  if (!isRecord(p)) return refuse('the statement has no predicate');
  if (p['result'] !== 'PASSED' && p['result'] !== 'WARNED' && p['result'] !== 'FAILED')
    return refuse(`result ${JSON.stringify(p['result'])} is not PASSED, WARNED or FAILED`);
  for (const list of ['passedTests', 'warnedTests', 'failedTests'])
    if (!isStringList(p[list])) return refuse(`${list} is not a list of test names`);
  if (!Array.isArray(p['configuration']) || !p['configuration'].every(isRecord))
    return refuse('configuration is not a list of resource descriptors');
  return parsed as unknown as Statement;
}

/** The provider configuration the statement names, with its digest recomputed and held to the subject's. */
function providerOf(statement: Statement): ProviderConfiguration {
  const d = descriptor(statement.predicate.configuration, DESCRIPTOR.provider);
  const a = d.annotations;
  if (
    !isRecord(a) ||
    typeof a['baseUrl'] !== 'string' ||
    typeof a['authMethod'] !== 'string' ||
    !isStringList(a['capabilities'])
  )
    return refuse('the provider configuration lacks baseUrl, authMethod or capabilities');
  const config = a as unknown as ProviderConfiguration;
  let digest: string;
  try {
    digest = configurationDigest(config);
  } catch {
    return refuse('the provider configuration is not plain JSON');
  }
  if (d.digest?.['sha256'] !== digest) return refuse('the provider configuration does not match its digest');
  const subject = statement.subject[0] as ResourceDescriptor;
  if (subject.digest?.['sha256'] !== digest)
    return refuse('the subject digest is not the digest of the provider configuration the certificate names');
  if (subject.name !== `provider:${config.slug ?? config.baseUrl}`)
    return refuse(`the subject name ${JSON.stringify(subject.name)} does not name the provider of the configuration`);
  return config;
}

function checkShipped(statement: Statement, shipped: Shipped): void {
  const { configuration } = statement.predicate;
  const contract = descriptor(configuration, DESCRIPTOR.contract);
  const version = isRecord(contract.annotations) ? contract.annotations['contractVersion'] : undefined;
  if (version !== shipped.contractVersion)
    refuse(`it certifies contract ${String(version)}, and this verifier ships contract ${shipped.contractVersion}`);
  if (contract.digest?.['sha256'] !== shipped.specDigest)
    refuse('its spec/openapi.yaml digest is not the one this provcert ships (issued by another provcert version?)');
  if (descriptor(configuration, DESCRIPTOR.catalog).digest?.['sha256'] !== shipped.catalogDigest)
    refuse('its requirement catalog digest is not the one this provcert ships');
  descriptor(configuration, DESCRIPTOR.tool);
  const settings = descriptor(configuration, DESCRIPTOR.settings);
  if (!isRecord(settings.annotations) || settings.digest?.['sha256'] !== canonicalDigest(settings.annotations))
    refuse('the run settings do not match their digest');
}

function issuedAtOf(statement: Statement): { issuedAt: string; run: Record<string, unknown> } {
  const run = descriptor(statement.predicate.configuration, DESCRIPTOR.run).annotations;
  if (!isRecord(run) || typeof run['issuedAt'] !== 'string' || !ISO.test(run['issuedAt']))
    return refuse('the run names no issuedAt time');
  return { issuedAt: run['issuedAt'], run };
}

/** The lists agree with each other and with the result. */
function checkLists(statement: Statement): void {
  const { result, passedTests, warnedTests, failedTests } = statement.predicate;
  const seen = new Set<string>();
  for (const name of [...passedTests, ...warnedTests, ...failedTests]) {
    const bare = name.replace(/^waived:/, '');
    if (seen.has(bare)) refuse(`${bare} is listed twice`);
    seen.add(bare);
  }
  for (const name of [...passedTests, ...failedTests])
    if (name.startsWith('waived:')) refuse(`${name} is waived but not among the warned tests`);
  const derived = resultOf(result !== 'FAILED', { warnedTests, failedTests });
  if (derived !== result) refuse(`the result ${result} contradicts its lists (they make it ${derived})`);
}

/** What the shipped catalog requires for the certificate's profile: each required check and its requirements. */
function checkRequired(statement: Statement, provider: ProviderConfiguration, policy: VerifyPolicy): void {
  const { passedTests, warnedTests, configuration } = statement.predicate;
  const profile = descriptor(configuration, DESCRIPTOR.profile).annotations?.['profile'];
  if (typeof profile !== 'string' || !(PROFILES as readonly string[]).includes(profile))
    refuse(`the profile ${JSON.stringify(profile)} is not one the contract names (${PROFILES.join(', ')})`);
  const ok = new Set([...passedTests, ...warnedTests]);
  const allowed = new Set(policy.allowWaivers ?? []);
  for (const name of warnedTests) {
    if (!name.startsWith('waived:')) continue;
    // A check id allows its waived check; a requirement id (a waiver naming a requirement alone) allows that requirement.
    const id = name.replace(/^waived:(check|requirement):/, '');
    if (!allowed.has(id)) refuse(`${name.slice('waived:'.length)} is waived, and the policy allows no waiver for it`);
  }
  const required = policy.requiredChecks({
    profile: String(profile),
    authMethod: provider.authMethod,
    capabilities: provider.capabilities,
  });
  for (const check of required) {
    const name = `check:${check.id}`;
    if (!ok.has(name) && !ok.has(`waived:${name}`))
      refuse(`the required check ${check.id} is not among the passed or warned tests`);
    for (const r of check.requirements) {
      const req = `requirement:${r}`;
      if (!ok.has(req) && !ok.has(`waived:${req}`))
        refuse(`requirement ${r} (verified by ${check.id}) is not among the passed or warned tests`);
    }
  }
}

function checkKeyValidity(key: TrustedKey, issuedAt: string): void {
  if (key.validFrom !== undefined && Date.parse(issuedAt) < Date.parse(key.validFrom))
    refuse(`it claims to be issued at ${issuedAt}, before key ${key.kid} existed (${key.validFrom})`);
  if (key.validUntil !== undefined && Date.parse(issuedAt) >= Date.parse(key.validUntil))
    refuse(`it claims to be issued at ${issuedAt}, after key ${key.kid} was retired (${key.validUntil})`);
}

/** Allowed clock skew between issuer and verifier. */
const SKEW_MS = 5 * 60_000;

/**
 * Verifies a certificate: the DSSE envelope against the trusted keys, then its content against what the shipped
 * contract and catalog require. Refuses naming the first reason.
 */
export function verifyCertificateWith(input: unknown, policy: VerifyPolicy): Verification {
  try {
    const envelope = envelopeOf(input);
    const body = strictBase64(envelope.payload) ?? refuse('payload is not strict base64');
    const key = signedBy(envelope, body, policy.keys);
    const statement = statementOf(body);
    const { issuedAt } = issuedAtOf(statement);
    checkKeyValidity(key, issuedAt);
    checkShipped(statement, policy.shipped);
    const provider = providerOf(statement);
    checkLists(statement);
    if (statement.predicate.result === 'FAILED') refuse('its result is FAILED: the certification did not pass');
    checkRequired(statement, provider, policy);
    const age = policy.now.getTime() - Date.parse(issuedAt);
    if (age < -SKEW_MS) refuse(`it is issued in the future (${issuedAt})`);
    if (policy.maxAgeMs !== undefined && age > policy.maxAgeMs)
      refuse(`it was issued at ${issuedAt}, longer ago than the maximum age`);
    const subject = statement.subject[0] as ResourceDescriptor;
    const sha256 = String(subject.digest?.['sha256']);
    if (policy.configDigest !== undefined && policy.configDigest !== sha256)
      refuse(`it certifies configuration ${sha256}, not the provider's current ${policy.configDigest}`);
    return {
      valid: true,
      statement,
      keyid: key.kid,
      subject: { name: String(subject.name), sha256 },
      result: statement.predicate.result,
      issuedAt,
      provider,
    };
  } catch (e) {
    if (e instanceof Refusal) return { valid: false, reason: e.message };
    throw e;
  }
}
