import type { Contract } from '../../contract/contract.js';
import type { ProviderClient } from '../../http/types.js';
import { whyNotJson200 } from '../framework/resources-impl.js';
import type { CertificationInputView } from '../framework/views.js';

/**
 * certificationInput is "valid test data" (Resources and their fields › ProviderInfo): valid by the provider's own
 * data, not only by the schema. Its items are checked against GET /catalog (metadata.ts); here, its location against
 * GET /locations and its customer against the manifest's customerRequirements. An omitted field is never judged
 * (docs/decisions.md: "An optional field that is omitted is never a failure").
 */

const AT = 'manifest.certificationInput';

/** Why certificationInput.locationId is no location GET /locations lists; undefined when it is one, or omitted. */
export function certificationLocationProblem(
  locationId: unknown,
  listed: readonly string[] | undefined,
): string | undefined {
  if (locationId === undefined) return undefined;
  if (typeof locationId === 'string' && locationId.trim() === '')
    return `${AT}.locationId is empty (found ${JSON.stringify(locationId)}): name a location GET /locations lists, or leave locationId out`;
  if (listed === undefined || listed.includes(String(locationId))) return undefined;
  const known = listed.length > 0 ? listed.join(', ') : 'none';
  return `${AT}.locationId "${String(locationId)}" is not a location GET /locations lists (active locations: ${known}); certificationInput must be valid test data`;
}

/**
 * Why certificationInput.customer does not meet manifest.customerRequirements: one line per field marked REQUIRED
 * that the customer leaves out or leaves empty. A certificationInput without a customer is not judged (provcert then
 * sends its own test customer).
 */
export function certificationCustomerProblems(
  input: CertificationInputView,
  customerRequirements: Record<string, unknown> | undefined,
): string[] {
  const customer = input.customer as Record<string, unknown> | undefined;
  if (customer === undefined || customer === null || customerRequirements === undefined) return [];
  const problems: string[] = [];
  for (const [field, requirement] of Object.entries(customerRequirements)) {
    if (requirement !== 'REQUIRED') continue;
    const value = customer[field];
    const found =
      value === undefined || value === null
        ? 'is missing'
        : typeof value === 'string' && value.trim() === ''
          ? `is empty (found ${JSON.stringify(value)})`
          : undefined;
    if (found)
      problems.push(
        `${AT}.customer.${field} ${found}, but manifest.customerRequirements marks ${field} REQUIRED: certificationInput must be valid test data`,
      );
  }
  return problems;
}

/** The ids of the locations GET /locations lists (active only, its default), or why that answer is unusable. */
export async function listedLocationIds(
  client: ProviderClient,
  contract: Contract,
): Promise<{ ids: string[] } | { unusable: string }> {
  const outcome = await client.send({ method: 'GET', path: '/locations' });
  const notJson = whyNotJson200('GET /locations', outcome);
  if (notJson) return { unusable: notJson };
  const json = (outcome as { json: unknown }).json;
  if (contract.validateResponse('GET /locations', 200, json)?.valid === false || !Array.isArray(json))
    return { unusable: 'GET /locations does not match the schema (see locations)' };
  return { ids: json.map((l: { id: string }) => l.id) };
}
