import type { SchemaProblem } from '../contract/contract.js';
import type { RequirementId } from '../model/findings.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { CatalogView, CertificationInputView, ProviderInfoView } from './framework/views.js';
import { Findings } from './outcome.js';
import {
  certificationCustomerProblems,
  certificationLocationProblem,
  listedLocationIds,
} from './support/certification-input.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson, expectSchema } from './support/expect.js';

/** Why certificationInput does not fit the catalog: one line per item reference that does not exist. */
export function certificationInputProblems(input: CertificationInputView, catalog: CatalogView): string[] {
  const problems: string[] = [];
  (input.items ?? []).forEach((item, i) => {
    const at = `manifest.certificationInput.items[${i}]`;
    const offering = catalog.offerings.find((o) => o.id === item.offeringId);
    if (!offering) {
      problems.push(`${at}.offeringId "${item.offeringId}" is not an offering id of GET /catalog`);
      return;
    }
    if (item.variantId !== undefined && !(offering.variants ?? []).some((v) => v.id === item.variantId)) {
      problems.push(`${at}.variantId "${item.variantId}" is not a variant of offering ${offering.id}`);
    }
    (item.selectedOptions ?? []).forEach((sel, j) => {
      const group = (offering.optionGroups ?? []).find((g) => g.id === sel.groupId);
      if (!group)
        problems.push(
          `${at}.selectedOptions[${j}].groupId "${sel.groupId}" is not an option group of offering ${offering.id}`,
        );
      else if (!(group.options ?? []).some((o) => o.id === sel.optionId))
        problems.push(`${at}.selectedOptions[${j}].optionId "${sel.optionId}" is not an option of group ${group.id}`);
    });
  });
  return problems;
}

/**
 * Schema problems in the parts of provider-info that have a sentence of their own: a capability name ("a
 * capability declares an operation … not a product category") and each part of the manifest.
 */
function providerInfoRequirement(p: SchemaProblem): RequirementId | undefined {
  if (/^\/capabilities\/\d+$/.test(p.pointer)) return 'CAPABILITY-IS-OPERATION';
  if (/^\/manifest\/(customerRequirements|inputMode)(\/|$)/.test(p.pointer))
    return 'MANIFEST-CUSTOMER-REQUIREMENTS-INPUT-MODE';
  if (/^\/manifest\/certification(\/|$)/.test(p.pointer)) return 'MANIFEST-SAFE-TEST-ENVIRONMENT';
  if (/^\/manifest\/certificationInput(\/|$)/.test(p.pointer)) return 'MANIFEST-CERTIFICATION-INPUT-VALID';
  return undefined;
}

/** The certification manifest rules beyond the schema (which `manifest` is not required by). */
function judgeManifest(f: Findings, info: ProviderInfoView): void {
  const manifest = info.manifest;
  if (manifest === undefined) {
    f.problem(
      'manifest is missing from GET /provider-info; certification requires manifest.certification.safeTestEnvironment: true: transactional checks were not run; no POST request was sent',
    );
    return;
  }
  const safe = manifest.certification?.safeTestEnvironment;
  if (safe !== true) {
    const found = safe === undefined ? 'missing' : JSON.stringify(safe);
    f.problem(
      `manifest.certification.safeTestEnvironment is ${found}; it must be true (certification creates test orders): transactional checks were not run; no POST request was sent`,
    );
  }
  if (manifest.customerRequirements === undefined)
    f.warn(
      'manifest.customerRequirements is absent; declare the customer fields you require (e.g. {"phone":"REQUIRED"}), or {} for none',
      'MANIFEST-CUSTOMER-REQUIREMENTS-INPUT-MODE',
    );
  if (manifest.inputMode === undefined)
    f.warn(
      'manifest.inputMode is absent; declare OFFERING (catalog items) or PARAMETERS (parameter-only service)',
      'MANIFEST-CUSTOMER-REQUIREMENTS-INPUT-MODE',
    );
}

/**
 * certificationInput's location against GET /locations and its customer against customerRequirements; returns
 * whether the location was checked (not when it is omitted, or GET /locations is unusable: a warning says so).
 */
async function judgeLocationAndCustomer(
  ctx: CheckContext,
  f: Findings,
  input: CertificationInputView,
  info: ProviderInfoView,
): Promise<boolean> {
  for (const p of certificationCustomerProblems(input, info.manifest?.customerRequirements))
    f.problem(p, 'MANIFEST-CERTIFICATION-INPUT-VALID');
  const locationId: unknown = input.locationId;
  if (locationId === undefined) return false;
  const blank = certificationLocationProblem(locationId, undefined);
  if (blank) return f.problem(blank, 'MANIFEST-CERTIFICATION-INPUT-VALID');
  const listed = await listedLocationIds(ctx.client, ctx.contract);
  if ('unusable' in listed) {
    f.warn(
      `manifest.certificationInput.locationId "${String(locationId)}" was not checked against GET /locations, which is unusable: ${listed.unusable}`,
      'MANIFEST-CERTIFICATION-INPUT-VALID',
    );
    return false;
  }
  const unknown = certificationLocationProblem(locationId, listed.ids);
  if (unknown) return f.problem(unknown, 'MANIFEST-CERTIFICATION-INPUT-VALID');
  return true;
}

/** Whether certificationInput was checked against the catalog (not when the catalog is unusable: a warning says so). */
async function judgeCertificationInput(
  ctx: CheckContext,
  f: Findings,
  input: CertificationInputView,
): Promise<'checked' | 'unchecked'> {
  let catalog: CatalogView;
  try {
    catalog = await ctx.resources.catalog();
  } catch (error) {
    if (!(error instanceof PrerequisiteError)) throw error;
    // The catalog is the catalog check's subject; metadata only cannot cross-check against it.
    f.warn(
      `manifest.certificationInput was not checked against the catalog, which is unusable (see catalog): ${error.message}`,
      'MANIFEST-CERTIFICATION-INPUT-VALID',
    );
    return 'unchecked';
  }
  for (const p of certificationInputProblems(input, catalog)) f.problem(p, 'MANIFEST-CERTIFICATION-INPUT-VALID');
  return 'checked';
}

export const check: CheckDefinition = {
  id: 'metadata',
  group: 'read',
  title: 'Provider info and certification manifest',
  rule: 'Contract, ProviderInfo: required id, slug, name, status, type, capabilities; "manifest.certification.safeTestEnvironment must be boolean true for certification", customerRequirements, inputMode (OFFERING or PARAMETERS), certificationInput (valid test data: its items in GET /catalog, its locationId in GET /locations, its customer meeting customerRequirements); docs/decisions.md, Safety',
  requirements: [
    'MANIFEST-SAFE-TEST-ENVIRONMENT',
    'PROVIDERINFO-REQUIRED-FIELDS',
    'MANIFEST-CERTIFICATION-INPUT-VALID',
    'PROVIDER-STATUS-VALUES',
    'ROUTE-PROVIDER-INFO',
    'CAPABILITY-IS-OPERATION',
    'MANIFEST-CUSTOMER-REQUIREMENTS-INPUT-MODE',
  ],
  appliesTo: {
    operations: ['GET /provider-info'],
    description: 'every provider (METADATA is required in both profiles)',
  },
  async run(ctx) {
    const f = new Findings();
    const outcome = await ctx.client.send({ method: 'GET', path: '/provider-info' });
    if (!expectJson(f, outcome, 'GET /provider-info', 200, 'ROUTE-PROVIDER-INFO')) return f.outcome('');
    if (
      !expectSchema(
        f,
        ctx.contract,
        outcome,
        'GET /provider-info',
        'GET /provider-info',
        'PROVIDERINFO-REQUIRED-FIELDS',
        providerInfoRequirement,
      )
    ) {
      // Still say whether POSTs will be sent: that decides what the rest of the run does.
      const manifest = (outcome.json as { manifest?: { certification?: { safeTestEnvironment?: unknown } } } | null)
        ?.manifest;
      if (manifest?.certification?.safeTestEnvironment !== true)
        f.problem(
          'manifest.certification.safeTestEnvironment is not true: transactional checks were not run; no POST request was sent',
        );
      return f.outcome('');
    }
    const info = outcome.json as ProviderInfoView;
    const known = new Set(ctx.contract.enumValues('Capability'));
    const unknown = info.capabilities.filter((c) => known.size > 0 && !known.has(c));
    if (unknown.length > 0)
      f.problem(
        `capabilities ${unknown.join(', ')} are not capability names of the contract (${[...known].join(', ')})`,
        'CAPABILITY-IS-OPERATION',
      );
    const duplicates = info.capabilities.filter((c, i) => info.capabilities.indexOf(c) !== i);
    if (duplicates.length > 0)
      f.warn(`capabilities lists ${[...new Set(duplicates)].join(', ')} more than once`, 'CAPABILITY-IS-OPERATION');
    if (info.authMethod !== undefined && info.authMethod !== ctx.config.auth) {
      f.warn(
        `provider-info states authMethod ${info.authMethod}, but this run uses ${ctx.config.auth}; the portal setting must match what the backend expects`,
      );
    }
    if (ctx.expectedSlug !== undefined && info.slug !== ctx.expectedSlug)
      f.problem(
        `GET /provider-info answers slug "${info.slug}", but this provider is registered as "${ctx.expectedSlug}": a provider is certified only under its own slug (register it as "${info.slug}", or fix the slug its backend answers)`,
        'PROVIDERINFO-REQUIRED-FIELDS',
      );
    judgeManifest(f, info);
    const input = info.manifest?.certificationInput;
    const judged = input ? await judgeCertificationInput(ctx, f, input) : undefined;
    const locationChecked = input ? await judgeLocationAndCustomer(ctx, f, input, info) : false;
    if (f.failed) keepEvidence(f, outcome);
    // The pass message never claims what its own warning says was not checked (issue 34).
    const inputNote =
      judged === 'checked'
        ? `, certificationInput refers to catalog ids${locationChecked ? ' and a location GET /locations lists' : ''}`
        : judged === 'unchecked'
          ? ', certificationInput not checked (the catalog is unusable: see catalog)'
          : ', no certificationInput (the selection is derived from the catalog)';
    return f.outcome(
      `provider ${info.slug} (${info.capabilities.length} capabilities); manifest declares a safe test environment${inputNote}`,
    );
  },
};
