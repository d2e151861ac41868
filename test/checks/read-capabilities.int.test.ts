import { checkIdsIn } from '../../src/checks/framework/registry.js';
import { loadContract } from '../../src/contract/load.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { ALL_CAPABILITIES } from '../../src/reference-provider/index.js';
import { runCertification } from '../../src/runner/run.js';
import { certify, testConfig } from '../support/certify.js';
import { describe, expect, test as it } from '../support/fixtures.js';

const READ_CHECKS = checkIdsIn('read');
const READONLY = ['METADATA', 'HEALTH', 'CATALOG', 'LOCATIONS', 'SEARCH'];
const find = (report: RunReport, id: CheckId): CheckResult | undefined => report.checks.find((c) => c.id === id);

describe('capabilities', () => {
  it('fails when the portal declaration differs from GET /provider-info, naming both sides', async ({ reference }) => {
    const portal = [...ALL_CAPABILITIES.filter((c) => c !== 'SEARCH'), 'NOT_A_CAPABILITY'];
    const config = testConfig(reference.provider.url, { capabilities: portal, only: ['capabilities'] });
    const report = await runCertification(config, {
      contract: await loadContract(),
      credential: reference.credential,
      webhookSecret: reference.webhookSecret,
    });
    const result = find(report, 'capabilities');
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(
      /declared in the portal \(the capabilities setting\) but not by GET \/provider-info: NOT_A_CAPABILITY; declared by GET \/provider-info but not in the portal: SEARCH/,
    );
  });

  it('fails a TRANSACTIONAL provider that does not declare WEBHOOK', async () => {
    const { report } = await certify({
      capabilities: ALL_CAPABILITIES.filter((c) => c !== 'WEBHOOK'),
      only: ['capabilities'],
    });
    expect(find(report, 'capabilities')?.message).toMatch(
      /the TRANSACTIONAL profile requires WEBHOOK, which GET \/provider-info does not declare/,
    );
  });

  it('requires LOCATIONS of a delivery provider, even read-only', async () => {
    const { report } = await certify({
      capabilities: READONLY.filter((c) => c !== 'LOCATIONS'),
      only: ['capabilities', 'locations'],
    });
    expect(find(report, 'capabilities')?.message).toMatch(
      /DISCOVERY_READONLY profile requires LOCATIONS.*because fulfillment is DELIVERY/,
    );
    // The fulfillment mode alone makes the locations check apply.
    expect(find(report, 'locations')?.status).toBe('pass');
  });
});

describe('a read-only provider', () => {
  it('passes the read checks without any POST request', async () => {
    const { report, provider } = await certify({ capabilities: READONLY, only: READ_CHECKS });
    const bad = report.checks
      .filter((c) => c.status === 'fail' || c.status === 'error')
      .map((c) => `${c.id}: ${c.message}`);
    expect(bad).toEqual([]);
    // Its POST routes belong to capabilities it does not declare: not governed, so neither probed nor warned about.
    expect(find(report, 'wrong-credential')?.status).toBe('pass');
    expect(provider.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('sends no POST at all to an unsafe test environment, and metadata says so', async () => {
    const { report, provider } = await certify({
      faults: ['unsafe-test-environment'],
      authMethod: 'HMAC_SIGNATURE',
      only: READ_CHECKS,
    });
    expect(find(report, 'metadata')?.status).toBe('fail');
    expect(find(report, 'signature')?.status).toBe('pass');
    expect(provider.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
