import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Certificate, signStatement } from '../../src/certificates/certificate.js';
import { strictBase64 } from '../../src/certificates/dsse.js';
import { shippedDigests } from '../../src/certificates/shipped.js';
import type { Statement } from '../../src/certificates/statement.js';
import { trustedKeysFromJwks } from '../../src/certificates/trusted-keys.js';
import { type VerifyPolicy, verifyCertificateWith } from '../../src/certificates/verify.js';
import { requiredChecksFor } from '../../src/checks/framework/registry.js';
import { loadContract } from '../../src/contract/load.js';
import { type Issued, issueForReferenceRun } from './support/valid-certificate.js';

/** A seeded generator: the same 1,000 tampered certificates on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let issued: Issued;
let policy: VerifyPolicy;
let required: { id: string; requirements: readonly string[] }[];

beforeAll(async () => {
  issued = await issueForReferenceRun();
  const contract = await loadContract();
  policy = {
    keys: trustedKeysFromJwks(issued.jwks),
    shipped: shippedDigests(),
    requiredChecks: (c) => requiredChecksFor(contract, c),
    now: new Date(issued.issuedAt.getTime() + 60_000),
  };
  required = requiredChecksFor(contract, {
    profile: String(issued.report.provider.profile),
    authMethod: issued.report.provider.authMethod,
    capabilities: issued.report.provider.capabilities,
  });
}, 120_000);

const clone = <T>(v: T): T => structuredClone(v);
const payloadBytes = (c: Certificate): Buffer => strictBase64(c.payload) ?? Buffer.alloc(0);
const withPayload = (c: Certificate, bytes: Buffer): Certificate => ({
  ...clone(c),
  payload: bytes.toString('base64'),
});
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface Tampered {
  family: string;
  certificate: unknown;
}

/** A statement edit re-signed with `key`: the trusted key (a valid signature over wrong content) or another one. */
function resigned(family: string, key: KeyObject, edit: (s: Statement) => void): Tampered {
  const s = clone(issued.statement);
  edit(s);
  return { family, certificate: signStatement(s, key) };
}

const descriptor = (s: Statement, name: string) => {
  const d = s.predicate.configuration.find((x) => x.name === name);
  if (!d) throw new Error(`no ${name}`);
  return d;
};

/** The statement edits that must each be refused even with a valid signature. */
function contentEdits(): [string, (s: Statement) => void][] {
  const edits: [string, (s: Statement) => void][] = [];
  for (const check of required) {
    edits.push([
      `required check ${check.id} removed`,
      (s) => {
        s.predicate.passedTests = s.predicate.passedTests.filter((t) => t !== `check:${check.id}`);
        s.predicate.warnedTests = s.predicate.warnedTests.filter((t) => t !== `check:${check.id}`);
      },
    ]);
    edits.push([
      `required check ${check.id} moved to failed`,
      (s) => {
        s.predicate.passedTests = s.predicate.passedTests.filter((t) => t !== `check:${check.id}`);
        s.predicate.warnedTests = s.predicate.warnedTests.filter((t) => t !== `check:${check.id}`);
        s.predicate.failedTests.push(`check:${check.id}`);
        s.predicate.result = 'FAILED';
      },
    ]);
    edits.push([
      `required check ${check.id} waived`,
      (s) => {
        s.predicate.passedTests = s.predicate.passedTests.filter((t) => t !== `check:${check.id}`);
        s.predicate.warnedTests = s.predicate.warnedTests.filter((t) => t !== `check:${check.id}`);
        s.predicate.warnedTests.push(`waived:check:${check.id}`);
        s.predicate.result = 'WARNED';
      },
    ]);
    for (const r of check.requirements)
      edits.push([
        `requirement ${r} removed`,
        (s) => {
          s.predicate.passedTests = s.predicate.passedTests.filter((t) => t !== `requirement:${r}`);
          s.predicate.warnedTests = s.predicate.warnedTests.filter((t) => t !== `requirement:${r}`);
        },
      ]);
  }
  const other = (v: string): string => (v.startsWith('0') ? `1${v.slice(1)}` : `0${v.slice(1)}`);
  edits.push(
    [
      'result FAILED',
      (s) => {
        s.predicate.result = 'FAILED';
      },
    ],
    [
      'result contradicts a failed test',
      (s) => {
        s.predicate.failedTests.push('check:made-up');
      },
    ],
    [
      'result PASSED beside warned tests',
      (s) => {
        s.predicate.result = 'PASSED';
        s.predicate.warnedTests.push('check:x');
      },
    ],
    [
      'result WARNED with no warned test',
      (s) => {
        s.predicate.result = 'WARNED';
        s.predicate.warnedTests = [];
      },
    ],
    [
      'a test listed twice',
      (s) => {
        s.predicate.failedTests = [];
        s.predicate.warnedTests.push(String(s.predicate.passedTests[0]));
        s.predicate.result = 'WARNED';
      },
    ],
    [
      'result not a verdict',
      (s) => {
        (s.predicate as { result: string }).result = 'OK';
      },
    ],
    [
      'passedTests not a list',
      (s) => {
        (s.predicate as unknown as Record<string, unknown>)['passedTests'] = 'all';
      },
    ],
    [
      'subject digest changed',
      (s) => {
        const d = s.subject[0]?.digest;
        if (d) d['sha256'] = other(String(d['sha256']));
      },
    ],
    [
      'subject renamed',
      (s) => {
        if (s.subject[0]) s.subject[0].name = 'provider:someone-else';
      },
    ],
    [
      'second subject',
      (s) => {
        s.subject.push(clone(s.subject[0] ?? {}));
      },
    ],
    [
      'no subject',
      (s) => {
        s.subject = [];
      },
    ],
    [
      'provider base URL changed',
      (s) => {
        const a = descriptor(s, 'provider-configuration').annotations;
        if (a) a['baseUrl'] = 'https://evil.example';
      },
    ],
    [
      'provider capabilities narrowed',
      (s) => {
        const a = descriptor(s, 'provider-configuration').annotations;
        if (a) a['capabilities'] = ['METADATA'];
      },
    ],
    [
      'provider auth method changed',
      (s) => {
        const a = descriptor(s, 'provider-configuration').annotations;
        if (a) a['authMethod'] = 'BEARER';
      },
    ],
    [
      'provider configuration removed',
      (s) => {
        s.predicate.configuration = s.predicate.configuration.filter((d) => d.name !== 'provider-configuration');
      },
    ],
    [
      'spec digest changed',
      (s) => {
        const d = descriptor(s, 'spec/openapi.yaml').digest;
        if (d) d['sha256'] = other(String(d['sha256']));
      },
    ],
    [
      'catalog digest changed',
      (s) => {
        const d = descriptor(s, 'spec/requirements.yaml').digest;
        if (d) d['sha256'] = other(String(d['sha256']));
      },
    ],
    [
      'contract version changed',
      (s) => {
        const a = descriptor(s, 'spec/openapi.yaml').annotations;
        if (a) a['contractVersion'] = '2.0.0';
      },
    ],
    [
      'catalog removed',
      (s) => {
        s.predicate.configuration = s.predicate.configuration.filter((d) => d.name !== 'spec/requirements.yaml');
      },
    ],
    [
      'profile changed to an unknown one',
      (s) => {
        const a = descriptor(s, 'profile').annotations;
        if (a) a['profile'] = 'ANYTHING';
      },
    ],
    [
      'run settings changed without their digest',
      (s) => {
        const a = descriptor(s, 'run-settings').annotations;
        if (a) a['strict'] = true;
      },
    ],
    [
      'issuedAt removed',
      (s) => {
        const a = descriptor(s, 'run').annotations;
        if (a) delete a['issuedAt'];
      },
    ],
    [
      'issuedAt in the future',
      (s) => {
        const a = descriptor(s, 'run').annotations;
        if (a) a['issuedAt'] = '2099-01-01T00:00:00.000Z';
      },
    ],
    [
      'issuedAt not a time',
      (s) => {
        const a = descriptor(s, 'run').annotations;
        if (a) a['issuedAt'] = 'yesterday';
      },
    ],
    [
      'predicateType changed',
      (s) => {
        (s as { predicateType: string }).predicateType = 'https://slsa.dev/provenance/v1';
      },
    ],
    [
      '_type changed',
      (s) => {
        (s as { _type: string })._type = 'https://in-toto.io/Statement/v0.1';
      },
    ],
  );
  return edits;
}

function tamperings(): Tampered[] {
  const random = prng(0x5eed);
  const pick = (n: number): number => Math.floor(random() * n);
  const out: Tampered[] = [];
  const base = issued.certificate;
  const bytes = payloadBytes(base);
  const other = generateKeyPairSync('ed25519').privateKey;
  // Statement edits signed by the trusted key (valid signature) and re-signed with another key.
  for (const [family, edit] of contentEdits()) {
    out.push(resigned(`valid signature, ${family}`, issued.key, edit));
    out.push(resigned(`re-signed with another key, ${family}`, other, edit));
  }
  out.push({ family: 're-signed with another key, unchanged', certificate: signStatement(issued.statement, other) });
  out.push({
    family: "another key's signature under the trusted key id",
    certificate: {
      ...signStatement(issued.statement, other),
      signatures: [
        {
          keyid: base.signatures[0]?.keyid ?? '',
          sig: signStatement(issued.statement, other).signatures[0]?.sig ?? '',
        },
      ],
    },
  });
  // Envelope fields.
  out.push({ family: 'payloadType changed', certificate: { ...clone(base), payloadType: 'application/json' } });
  out.push({ family: 'no signatures', certificate: { ...clone(base), signatures: [] } });
  out.push({ family: 'not an object', certificate: [base] });
  const rest = (): number => 1000 - out.length;
  const quarter = Math.floor(rest() / 4);
  // Payload bytes: one byte changed at a random place.
  for (let i = 0; i < quarter; i++) {
    const changed = Buffer.from(bytes);
    const at = pick(changed.length);
    changed[at] = (changed[at] ?? 0) ^ (1 + pick(255));
    out.push({ family: 'payload byte changed', certificate: withPayload(base, changed) });
  }
  // Payload text: one base64 character changed, or bytes cut or added.
  for (let i = 0; i < quarter; i++) {
    const text = base.payload;
    const at = pick(text.length - 4);
    const ch = text[at] ?? 'A';
    const replacement = B64.replace(ch, '')[pick(63)] ?? 'A';
    const variants = [
      `${text.slice(0, at)}${replacement}${text.slice(at + 1)}`,
      withPayload(base, bytes.subarray(0, pick(bytes.length))).payload,
      withPayload(base, Buffer.concat([bytes, Buffer.from(' ')])).payload,
    ];
    out.push({ family: 'payload text changed', certificate: { ...clone(base), payload: variants[i % 3] } });
  }
  // Signature: one byte changed, or cut.
  const sig = Buffer.from(base.signatures[0]?.sig ?? '', 'base64');
  for (let i = 0; i < quarter; i++) {
    const changed = Buffer.from(sig);
    const at = pick(changed.length);
    changed[at] = (changed[at] ?? 0) ^ (1 + pick(255));
    const s = i % 5 === 0 ? changed.subarray(0, pick(changed.length)) : changed;
    out.push({
      family: 'signature changed',
      certificate: {
        ...clone(base),
        signatures: [{ keyid: base.signatures[0]?.keyid ?? '', sig: s.toString('base64') }],
      },
    });
  }
  // Key id: changed characters, another key's id, empty.
  while (rest() > 0) {
    const kid = base.signatures[0]?.keyid ?? '';
    const at = pick(kid.length);
    const forms = [
      `${kid.slice(0, at)}${kid[at] === 'A' ? 'B' : 'A'}${kid.slice(at + 1)}`,
      '',
      `${kid}x`,
      kid.toLowerCase() === kid ? `${kid}Z` : kid.toLowerCase(),
    ];
    out.push({
      family: 'key id changed',
      certificate: {
        ...clone(base),
        signatures: [{ keyid: forms[out.length % forms.length] ?? '', sig: base.signatures[0]?.sig ?? '' }],
      },
    });
  }
  return out;
}

describe('provcert verify refuses a tampered certificate, naming why', () => {
  it('accepts the untampered certificate of a passing run', () => {
    expect(verifyCertificateWith(issued.certificate, policy)).toMatchObject({ valid: true });
  });

  it('refuses 1,000 tamperings (payload bytes, signature, key id, statement fields, another key, a required check removed) each with a reason', () => {
    const all = tamperings();
    expect(all).toHaveLength(1000);
    const accepted: string[] = [];
    const reasons = new Map<string, Set<string>>();
    for (const t of all) {
      const v = verifyCertificateWith(t.certificate, policy);
      if (v.valid) accepted.push(t.family);
      else {
        expect(v.reason.length).toBeGreaterThan(10);
        const set = reasons.get(t.family) ?? new Set();
        set.add(v.reason.replace(/[A-Za-z0-9_-]{43}/g, '<kid>'));
        reasons.set(t.family, set);
      }
    }
    expect(accepted).toEqual([]);
    // Valid signatures over wrong content are refused for the content, not the signature.
    for (const [family, set] of reasons)
      if (family.startsWith('valid signature'))
        for (const r of set) expect(r, family).not.toMatch(/signature|trusted keys/);
    expect([...(reasons.get('valid signature, required check quote-math removed') ?? [])]).toEqual([
      'the required check quote-math is not among the passed or warned tests',
    ]);
    expect([...(reasons.get('re-signed with another key, unchanged') ?? [])][0]).toMatch(/not among the trusted keys/);
    expect([...(reasons.get('payload byte changed') ?? [])]).toEqual([
      'the signature of key <kid> does not verify (the payload or the signature was altered, or another key signed it)',
    ]);
  });

  it('refuses by policy: too old, or for another configuration', () => {
    const old = verifyCertificateWith(issued.certificate, { ...policy, maxAgeMs: 30_000 });
    expect(old).toEqual({ valid: false, reason: expect.stringContaining('longer ago than the maximum age') });
    const moved = verifyCertificateWith(issued.certificate, { ...policy, configDigest: '0'.repeat(64) });
    expect(moved).toEqual({ valid: false, reason: expect.stringContaining("not the provider's current") });
  });
});
