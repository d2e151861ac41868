import type { Contract } from '../../contract/contract.js';
import { CHECK_IDS, type CheckId } from '../../model/check-ids.js';
import { check as actionStatus } from '../action-status.js';
import { check as actionValidation } from '../action-validation.js';
import { check as baseUrl } from '../base-url.js';
import { check as cancel } from '../cancel.js';
import { check as capabilities } from '../capabilities.js';
import { check as catalog } from '../catalog.js';
import { check as checkoutClick } from '../checkout-click.js';
import { check as credentialEcho } from '../credential-echo.js';
import { check as errors } from '../errors.js';
import { check as health } from '../health.js';
import { check as idempotency } from '../idempotency.js';
import { check as lifecycle } from '../lifecycle.js';
import { check as locations } from '../locations.js';
import { check as metadata } from '../metadata.js';
import { check as offering } from '../offering.js';
import { check as paymentOptions } from '../payment-options.js';
import { check as paymentPending } from '../payment-pending.js';
import { check as quoteBinding } from '../quote-binding.js';
import { check as quoteExpiry } from '../quote-expiry.js';
import { check as quoteExplore } from '../quote-explore.js';
import { check as quoteMath } from '../quote-math.js';
import { check as quoteValidation } from '../quote-validation.js';
import { check as search } from '../search.js';
import { check as signature } from '../signature.js';
import { check as webhook } from '../webhook.js';
import { check as wrongCredential } from '../wrong-credential.js';
import type { CheckDefinition, CheckGroup } from './types.js';

/**
 * Every check, keyed by its id (one file per check, named by its id). The type takes exactly the ids of
 * CHECK_IDS (src/model/check-ids.ts, which lower layers read): a missing or unknown key does not compile, and
 * test/checks/registry.test.ts holds each key equal to its definition's id.
 */
const REGISTRY: { readonly [Id in CheckId]: CheckDefinition } = {
  'base-url': baseUrl,
  metadata,
  capabilities,
  health,
  locations,
  catalog,
  offering,
  search,
  'wrong-credential': wrongCredential,
  signature,
  'credential-echo': credentialEcho,
  'quote-math': quoteMath,
  'quote-validation': quoteValidation,
  'quote-explore': quoteExplore,
  'quote-expiry': quoteExpiry,
  'quote-binding': quoteBinding,
  'action-validation': actionValidation,
  'payment-pending': paymentPending,
  'checkout-click': checkoutClick,
  'action-status': actionStatus,
  idempotency,
  lifecycle,
  webhook,
  cancel,
  'payment-options': paymentOptions,
  errors,
};

/** Every check, in report order: the order of CHECK_IDS (DECISIONS.md, Results). */
export const CHECKS: readonly CheckDefinition[] = CHECK_IDS.map((id) => REGISTRY[id]);

const isCheckId = (id: string): id is CheckId => Object.hasOwn(REGISTRY, id);

export const checkById = (id: string): CheckDefinition | undefined => (isCheckId(id) ? REGISTRY[id] : undefined);

/** The ids of one group's checks (read or transactional), in report order. */
export const checkIdsIn = (group: CheckGroup): CheckId[] => CHECKS.filter((c) => c.group === group).map((c) => c.id);

/** Parse a comma-separated id list; unknown ids are returned separately so the caller can list the known ones. */
export function parseCheckIds(list: string): { ids: CheckId[]; unknown: string[] } {
  const ids: CheckId[] = [];
  const unknown: string[] = [];
  for (const raw of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const def = checkById(raw);
    if (def) ids.push(def.id);
    else unknown.push(raw);
  }
  return { ids, unknown };
}

/**
 * The checks the shipped catalog requires of a provider by its profile, auth method and declared capabilities (the
 * static part of the runner's applicability): what a certificate must show passed. A check's own extra rule
 * (`skipReason`, decided on the provider's answers) is not judged here.
 */
export function requiredChecksFor(
  contract: Pick<Contract, 'operation'>,
  config: { profile: string; authMethod: string; capabilities: readonly string[] },
): { id: CheckId; requirements: readonly string[] }[] {
  const declared = new Set(config.capabilities);
  return CHECKS.filter(({ appliesTo: { profiles, authMethods, operations } }) => {
    if (profiles && !(profiles as readonly string[]).includes(config.profile)) return false;
    if (authMethods && !(authMethods as readonly string[]).includes(config.authMethod)) return false;
    if (!operations || operations.length === 0) return true;
    return operations.some((key) => {
      const op = contract.operation(key);
      return (
        op !== undefined &&
        ((op.capability !== undefined && declared.has(op.capability)) ||
          (op.requiredIn as readonly string[]).includes(config.profile))
      );
    });
  }).map((c) => ({ id: c.id, requirements: c.requirements }));
}
