import { describe, expect, it } from 'vitest';
import { checkIdsIn } from '../../src/checks/framework/registry.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import type { CheckResult } from '../../src/model/report.js';
import {
  ALL_CAPABILITIES,
  type FaultName,
  INPUT_FAULTS,
  type InputFaultName,
} from '../../src/reference-provider/index.js';
import { type CertifyOptions, certify, FAULTS } from '../support/certify.js';
import { strayFailCitations, undeclaredCitations } from '../support/citations.js';

const READ_CHECKS = checkIdsIn('read');

/** Words each fault's failure message must contain: it names the problem, not just "failed". */
const NAMES_THE_PROBLEM: Partial<Record<FaultName, RegExp>> = {
  'wrong-credential-accepted': /GET \/catalog with a wrong credential was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'missing-credential-accepted': /GET \/catalog without a credential was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'auth-skipped-offering':
    /GET \/offerings\/\S+ was never refused with 401 UNAUTHORIZED: without a credential it was answered HTTP 200.*authentication is skipped on this route/,
  'auth-skipped-cancel':
    /POST \/actions\/\S+\/cancel was never refused with 401 UNAUTHORIZED: .* it was answered HTTP \d+.*authentication is skipped on this route/,
  'credential-prefix-accepted':
    /GET \/catalog with the credential's last character dropped \(a prefix\) was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'credential-suffix-accepted':
    /GET \/catalog with one character appended to the credential was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'credential-case-insensitive':
    /GET \/catalog with the credential's letter case swapped was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'credential-trimmed':
    /GET \/catalog with the credential between non-breaking spaces was answered HTTP 200; expected 401 UNAUTHORIZED/,
  'webhook-secret-accepted':
    /GET \/catalog with the webhook secret \(the other direction's credential\) was answered HTTP 200; expected 401/,
  'credential-any-header':
    /GET \/catalog with the right credential in another auth method's header was answered HTTP 200; expected 401/,
  'bearer-scheme-unchecked':
    /with (the right token under another scheme word|a word before the scheme) \("(Basic|Token Bearer) <token>"\) was answered HTTP 200; expected 401/,
  'signature-truncated-accepted':
    /GET \/catalog with the right signature missing its last hex digit \(truncated\) was answered HTTP 200; expected 401/,
  'catalog-missing-field': /title/,
  'catalog-wrong-type': /basePrice must be integer \(found string "12\.50"\)/,
  'catalog-null': /description must be string \(found null\)/,
  'offering-disagrees': /differs from the catalog's offering .*: id "PZ-[A-Z]+"/,
  'unknown-offering-found': /does not exist\) was answered HTTP 200; expected 404 NOT_FOUND/,
  'health-unhealthy-shape': /GET \/health does not match the schema: .*latencyMs/,
  'health-status-not-string': /GET \/health does not match the schema: \/status must be string/,
  'health-latency-negative': /latencyMs is -1; a real measurement is a non-negative number/,
  'search-default-limit-ignored': /\(no limit\) returned 25 results; limit defaults to 20/,
  'capability-locations-undeclared': /LOCATIONS because fulfillment is DELIVERY/,
  'catalog-updated-at-not-iso': /GET \/catalog does not match the schema: \/updatedAt must be a valid ISO 8601/,
  'offering-detail-missing-title': /GET \/offerings\/.* does not match the schema: .*title/,
  'offering-detail-renamed': /is missing required field "title" \(found "name": canonical field names are not renamed/,
  'search-missing-title': /GET \/search.* does not match the schema: .*title/,
  'search-renamed-fields': /is missing required field "title" \(found "name": canonical field names are not renamed/,
  'search-foreign-ids': /returned offering id "search-.*", which is not in GET \/catalog/,
  'unknown-route-wrong-code': /unknown route .* was answered with code INVALID_ARGUMENT; expected NOT_FOUND/,
  'catalog-duplicate-ids': /offering id\(s\) .* occur more than once; ids must identify one offering/,
  'catalog-foreign-slug': /providerSlug "another-kitchen" differs from the slug of GET \/provider-info/,
  'locations-inactive-only': /inactive location/,
  'locations-none-active': /no active location/,
  'search-limit-ignored': /limit must be honoured/,
  'search-internal-error': /^GET \/search\?q=pizza answered HTTP 500 INTERNAL_ERROR.*; expected 200$/,
  'search-route-missing': /declared capability SEARCH: GET \/search answered HTTP 404/,
  'bad-signature-accepted':
    /GET \/catalog was never refused with 401 UNAUTHORIZED: without a signature it was answered HTTP 200.*authentication is skipped on this route/,
  'unsafe-test-environment': /safeTestEnvironment is false.*no POST request was sent/,
  'error-not-json': /an HTML page/,
  'error-code-undocumented': /ROUTE_MISSING, which is not a documented error code/,
  'unknown-action-options-crashes':
    /unknown action GET \/actions\/provcert-unknown-.*\/payment-options was answered HTTP 500 INTERNAL_ERROR; expected 404/,
  'quote-invalid-json-crashes':
    /POST \/quote with a body that is not JSON was answered HTTP 500 INTERNAL_ERROR.*; expected an ErrorResponse \(a 4xx status\)/,
  'query-refusal-code-empty':
    /GET \/locations\?activeOnly=maybe \(activeOnly is a boolean\) was answered HTTP 400 with a body that is not an ErrorResponse \("code" is empty\)/,
  'other-method-served':
    /POST \/catalog \(the route table lists GET \/catalog\) was served \(HTTP 200\); an endpoint the route table does not list does not exist: expected 404 NOT_FOUND/,
  'quote-null-item-crashes':
    /POST \/quote with items\[0\] null was answered HTTP 500 INTERNAL_ERROR.*; expected an ErrorResponse \(a 4xx status\)/,
  'catalog-ids-unstable':
    /GET \/catalog twice: offering .* had id .*, then .*; ids must be stable across catalog refreshes/,
  'provider-info-missing-name': /GET \/provider-info does not match the schema: .*name/,
  'location-missing-address': /GET \/locations.* does not match the schema: .*address/,
  'provider-info-name-empty':
    /GET \/provider-info does not match the schema: \/name is empty \(found string ""\): the required field "name" must carry a value/,
  'offering-title-empty':
    /GET \/catalog does not match the schema: \/offerings\/\d+\/title is empty \(found string ""\): the required field "title" must carry a value/,
  'location-name-empty':
    /GET \/locations.* does not match the schema: \/\d+\/name is empty \(found string " {3}"\): the required field "name" must carry a value, not an empty or blank string/,
  'certification-input-unknown-location':
    /manifest\.certificationInput\.locationId "loc-nowhere" is not a location GET \/locations lists \(active locations: loc-downtown\)/,
  'certification-input-customer-missing-required':
    /manifest\.certificationInput\.customer\.phone is missing, but manifest\.customerRequirements marks phone REQUIRED/,
  'catalog-missing-slug': /GET \/catalog does not match the schema: .*providerSlug/,
  'category-count-wrong': /GET \/catalog does not match the schema: \/categories\/\d+\/offeringsCount must be integer/,
  'option-group-limits-inverted': /option group grp-greek-dressing: minSelections 3 > maxSelections 1/,
  'health-route-missing': /GET \/health answered HTTP 404 NOT_FOUND; expected 200/,
  'provider-info-route-missing': /GET \/provider-info answered HTTP 404 NOT_FOUND; expected 200/,
  'capability-product-category':
    /GET \/provider-info does not match the schema: \/capabilities\/\d+ must be one of METADATA, .* \(found string "FOOD_DELIVERY"\)/,
  'manifest-input-mode-unknown':
    /GET \/provider-info does not match the schema: \/manifest\/inputMode must be one of OFFERING, PARAMETERS \(found string "CATALOG"\)/,
  'provider-status-unknown':
    /GET \/provider-info does not match the schema: \/status must be one of DRAFT, SANDBOX, ACTIVE, SUSPENDED, DISABLED \(found string "LIVE"\)/,
  'certification-input-unknown-offering':
    /manifest\.certificationInput\.items\[1\]\.offeringId "off-discontinued" is not an offering id of GET \/catalog/,
  'capability-health-undeclared':
    /the TRANSACTIONAL profile requires HEALTH, which GET \/provider-info does not declare/,
  'capability-webhook-undeclared':
    /the TRANSACTIONAL profile requires WEBHOOK, which GET \/provider-info does not declare/,
  'capability-cancel-undeclared':
    /declared in the portal \(the capabilities setting\) but not by GET \/provider-info: ACTION_CANCEL/,
  'catalog-route-missing': /GET \/catalog answered HTTP 404 NOT_FOUND; expected 200/,
  'catalog-renamed-fields': /is missing required field "title" \(found "name": canonical field names are not renamed/,
  'offering-by-code-missing':
    /GET \/offerings\/PZ-[A-Z]+ \(by offeringCode\) answered HTTP 404 NOT_FOUND; expected 200/,
  'health-timestamp-not-iso': /\/timestamp must be a valid ISO 8601 date-time \(found string "\w{3}, \d{2} \w{3} \d{4}/,
  'hmac-over-reserialized-body':
    /POST \/quote with a pretty-printed JSON body, signed over exactly the bytes sent, was answered HTTP 401.*raw body bytes/,
  'error-echoes-credential':
    /the answer \(HTTP 401\) to GET \/catalog with a wrong credential repeats the credential or authentication header value it was sent, in body at \$\.debug\.receivedHeaders\.x-provider-api-key/,
};

/** What a wrong run input's failure must name. */
const INPUT_NAMES: Record<InputFaultName, RegExp> = {
  'base-url-health-suffix': /the base URL ends with \/health; enter the API root/,
  'base-url-not-public-https': /the base URL uses http:\/\/; a provider base address must be public HTTPS/,
  'base-url-is-core': /points at provcert's own webhook receiver/,
  'base-url-unreachable': /the provider is unreachable: GET \/health/,
};

/** Run inputs a fault needs to show: the portal registration the provider disagrees with. */
const RUN_WITH: Partial<Record<FaultName, CertifyOptions>> = {
  'capability-cancel-undeclared': { portalCapabilities: [...ALL_CAPABILITIES] },
  'bearer-scheme-unchecked': { authMethod: 'BEARER_TOKEN' },
};

const byId = (checks: readonly CheckResult[], id: CheckId): CheckResult | undefined => checks.find((c) => c.id === id);

const readFaults = (Object.entries(FAULTS) as [FaultName, { check: CheckId }][]).filter(([, f]) =>
  READ_CHECKS.includes(f.check),
);

describe('read-only checks against the reference provider', () => {
  it.each<AuthMethod>(['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'])(
    'pass on the conforming provider with %s',
    async (authMethod) => {
      const { report } = await certify({ authMethod, only: READ_CHECKS });
      const bad = report.checks
        .filter((c) => c.status === 'fail' || c.status === 'error')
        .map((c) => `${c.id}: ${c.message}`);
      expect(bad).toEqual([]);
      expect(undeclaredCitations(report)).toEqual([]);
      for (const id of READ_CHECKS) {
        const hmac = authMethod === 'HMAC_SIGNATURE';
        const expected = (id === 'signature' && !hmac) || (id === 'wrong-credential' && hmac) ? 'skip' : 'pass';
        expect(byId(report.checks, id)?.status, id).toBe(expected);
      }
    },
  );

  it('covers every read-only fault switch with an expected message', () => {
    expect(readFaults.map(([name]) => name).sort()).toEqual(Object.keys(NAMES_THE_PROBLEM).sort());
  });

  it.each(readFaults)('fault %s fails check %s with a message naming the problem', async (fault, { check }) => {
    const authMethod: AuthMethod = check === 'signature' ? 'HMAC_SIGNATURE' : 'API_KEY';
    const { report } = await certify({ faults: [fault], authMethod, only: READ_CHECKS, ...RUN_WITH[fault] });
    const result = byId(report.checks, check);
    if (!result) throw new Error(`no result for ${check}`);
    expect(result.status, result.message).toBe('fail');
    const text = [result.message, ...(result.details ?? [])].join('\n');
    expect(text).toMatch(NAMES_THE_PROBLEM[fault] ?? /^$/);
    // Proven coverage: the failure stands on the requirement the fault breaks.
    const requirement = (FAULTS[fault] as { requirement?: string }).requirement;
    expect(
      result?.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement),
      text,
    ).toContain(requirement);
    // ...and every failure stands on a rule the fault breaks: a cited sentence is about its finding.
    expect(strayFailCitations(result, FAULTS[fault]), text).toEqual([]);
    expect(undeclaredCitations(report)).toEqual([]);
    expect(result?.evidence.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(INPUT_FAULTS) as [InputFaultName, (typeof INPUT_FAULTS)[InputFaultName]][])(
    'wrong input %s fails %s on its requirement',
    async (name, input) => {
      const { report } = await certify({ only: [input.check], baseUrl: input.baseUrl, local: input.local });
      const result = byId(report.checks, input.check);
      expect(result?.status, result?.message).toBe('fail');
      const text = [result?.message, ...(result?.details ?? [])].join('\n');
      expect(text).toMatch(INPUT_NAMES[name]);
      expect(
        result?.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement),
        text,
      ).toContain(input.requirement);
    },
  );
});
