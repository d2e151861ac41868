import { describe, expect, it } from 'vitest';
import { judgeAddress } from '../../src/checks/base-url.js';
import { Findings } from '../../src/checks/outcome.js';
import { addressDiagnoses } from '../../src/doctor/address.js';
import { type AddressRule, judgeBaseAddress } from '../../src/http/base-address.js';
import { spellAsConfigKey as spell } from '../../src/model/setting-speller.js';
import { baseAddressProblems } from '../../src/server/core-routes/base-address.js';

/**
 * One judge of a base address, three callers: the base-url check, serve's registration and the doctor break a URL
 * on the same rules with the same severities. The doctor has no local setting: it reads a URL on a local host as a
 * local self-test and any other as hosted, and it knows no service address (it runs none).
 */

type Severity = 'problem' | 'warning';
type Broken = Partial<Record<AddressRule, Severity>>;

interface Row {
  url: string;
  hosted: Broken;
  local: Broken;
  /** How the doctor reads the URL; absent for what its --base-url parsing refuses before diagnosing. */
  doctor?: 'hosted' | 'local';
}

const SERVICE = 'http://127.0.0.1:8080';
const REQUIREMENT: Record<AddressRule, string | undefined> = {
  'absolute-url': 'BASE-URL-PUBLIC-HTTPS',
  'web-scheme': 'BASE-URL-PUBLIC-HTTPS',
  https: 'BASE-URL-PUBLIC-HTTPS',
  'public-host': 'BASE-URL-PUBLIC-HTTPS',
  'no-health-suffix': 'BASE-URL-NO-HEALTH-SUFFIX',
  'not-service': 'BASE-URL-NOT-CORE',
  'no-query': undefined,
};

const both = (broken: Broken) => ({ hosted: broken, local: broken });
const ROWS: Row[] = [
  { url: 'https://api.example.com/provider', ...both({}), doctor: 'hosted' },
  {
    url: 'http://api.example.com/provider',
    hosted: { https: 'problem' },
    local: { https: 'warning' },
    doctor: 'hosted',
  },
  {
    url: 'https://10.0.0.5/api',
    hosted: { 'public-host': 'problem' },
    local: { 'public-host': 'warning' },
    doctor: 'local',
  },
  {
    url: 'http://localhost:3000',
    hosted: { https: 'problem', 'public-host': 'problem' },
    local: { https: 'warning', 'public-host': 'warning' },
    doctor: 'local',
  },
  { url: 'https://api.example.com/v1/health', ...both({ 'no-health-suffix': 'problem' }), doctor: 'hosted' },
  {
    url: 'http://127.0.0.1:3000/health/',
    hosted: { https: 'problem', 'public-host': 'problem', 'no-health-suffix': 'problem' },
    local: { https: 'warning', 'public-host': 'warning', 'no-health-suffix': 'problem' },
    doctor: 'local',
  },
  { url: 'https://api.example.com/api?x=1', ...both({ 'no-query': 'warning' }), doctor: 'hosted' },
  { url: 'https://api.example.com/api#top', ...both({ 'no-query': 'warning' }), doctor: 'hosted' },
  {
    url: 'https://api.example.com/health?x=1',
    ...both({ 'no-health-suffix': 'problem', 'no-query': 'warning' }),
    doctor: 'hosted',
  },
  {
    url: `${SERVICE}/api`,
    hosted: { https: 'problem', 'public-host': 'problem', 'not-service': 'problem' },
    local: { https: 'warning', 'public-host': 'warning', 'not-service': 'problem' },
    doctor: 'local',
  },
  { url: 'ftp://api.example.com', ...both({ 'web-scheme': 'problem' }) },
  { url: 'not a url', ...both({ 'absolute-url': 'problem' }) },
];

const CASES = ROWS.flatMap((row) => (['hosted', 'local'] as const).map((mode) => ({ ...row, mode })));

const rulesWith = (broken: Broken, severity: Severity): AddressRule[] =>
  (Object.keys(broken) as AddressRule[]).filter((rule) => broken[rule] === severity);

/** The doctor's status for a diagnosis that stands on these rules: the worst of them. */
function doctorStatus(broken: Broken, rules: AddressRule[]): string {
  const seen = rules.map((rule) => broken[rule]);
  return seen.includes('problem') ? 'fail' : seen.includes('warning') ? 'warn' : 'ok';
}

describe('the base-url check, serve and the doctor break a base address on the same rules', () => {
  it.each(CASES)('$url ($mode)', ({ url, mode, doctor, ...row }) => {
    const broken = row[mode];
    const local = mode === 'local';

    const verdict = judgeBaseAddress(url, { local, service: [{ what: 'the service', url: SERVICE }], spell });
    const judged = Object.fromEntries([...verdict.problems, ...verdict.warnings].map((f) => [f.rule, f.severity]));
    expect(judged).toEqual(broken);

    // The check: a failing finding on each broken rule's requirement, a warning for each advisory one.
    const f = new Findings();
    judgeAddress(f, url, { local, service: [{ what: "provcert's own webhook receiver", url: SERVICE }], spell });
    const recorded = f.outcome('').findings ?? [];
    expect(recorded.filter((r) => r.severity === 'fail').map((r) => r.requirement)).toEqual(
      rulesWith(broken, 'problem').map((rule) => REQUIREMENT[rule]),
    );
    expect(recorded.filter((r) => r.severity === 'warn')).toHaveLength(rulesWith(broken, 'warning').length);

    // serve's registration: refused on exactly the check's problems, in the same words (but whose address it is).
    const refused = baseAddressProblems(url, { local, coreUrl: SERVICE });
    const checkTexts = recorded.filter((r) => r.severity === 'fail').map((r) => r.message);
    expect(refused).toEqual(
      checkTexts.map((text) => text.replace("provcert's own webhook receiver", "this core server's own address")),
    );

    // The doctor: only for the reading it gives the URL, and without the service rule.
    if (doctor !== mode) return;
    const [https, basePath] = addressDiagnoses(new URL(url), spell);
    expect(https.status).toBe(doctorStatus(broken, ['https', 'public-host']));
    expect(basePath.status).toBe(doctorStatus(broken, ['no-health-suffix', 'no-query']));
  });
});
