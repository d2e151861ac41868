import type { CheckId } from '../../model/check-ids.js';
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
import type { CheckDefinition } from './types.js';

/** Every check, in report order (DECISIONS.md, Results). One file per check, named by its id. */
export const CHECKS: readonly CheckDefinition[] = [
  baseUrl,
  metadata,
  capabilities,
  health,
  locations,
  catalog,
  offering,
  search,
  wrongCredential,
  signature,
  credentialEcho,
  quoteMath,
  quoteValidation,
  quoteExplore,
  quoteExpiry,
  quoteBinding,
  actionValidation,
  paymentPending,
  checkoutClick,
  actionStatus,
  idempotency,
  webhook,
  cancel,
  paymentOptions,
  errors,
];

const BY_ID = new Map<string, CheckDefinition>(CHECKS.map((c) => [c.id, c]));

export const checkById = (id: string): CheckDefinition | undefined => BY_ID.get(id);

/** Parse a comma-separated id list; unknown ids are returned separately so the caller can list the known ones. */
export function parseCheckIds(list: string): { ids: CheckId[]; unknown: string[] } {
  const ids: CheckId[] = [];
  const unknown: string[] = [];
  for (const raw of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const def = BY_ID.get(raw);
    if (def) ids.push(def.id);
    else unknown.push(raw);
  }
  return { ids, unknown };
}
