import type { Contract, SchemaProblem } from '../../contract/contract.js';
import type { AuthMethod } from '../../model/contract-constants.js';
import type { SpellSetting } from '../../model/setting-speller.js';
import { SLUG_RULE } from '../../model/slug.js';
import { baseAddressProblems } from './base-address.js';
import { credentialFileProblem } from './credential-file.js';

export const REGISTER_OPERATION = 'POST /api/v1/providers/register';

/** Where the certifier reads the provider credential: a reference, never the value (DECISIONS.md, Credentials). */
export type CredentialRef = { env: string } | { file: string };

/** The contract's registration fields (plus the optional fulfillment), as validated. */
export interface RegistrationFields {
  name: string;
  slug: string;
  type: string;
  category: string;
  geography: string[];
  baseUrl: string;
  authMethod: AuthMethod;
  capabilities: string[];
  fulfillment?: string;
}

/** POST /api/v1/providers/register, validated. */
export interface Registration extends RegistrationFields {
  credential: CredentialRef;
}

/** Rules the schema cannot express: they depend on how and where the server runs. */
export interface RegistrationRules {
  local: boolean;
  coreUrl?: string;
  /** How a refusal names the `local` setting for this server's users (serve's CLI: `--local`); absent: the key. */
  spell?: SpellSetting;
}

/** The body once it matches CoreRegistrationInput of spec/openapi.yaml. */
interface RegistrationBody extends RegistrationFields {
  credentialEnv?: string;
  credentialFile?: string;
}

/** Fields that would carry the credential itself; the server takes a reference only. */
const CREDENTIAL_VALUE_FIELDS = ['credential', 'apiKey', 'token'];
const NOT_BLANK_FIELDS = ['/name', '/type', '/category', '/baseUrl'];

/** Schema texts for people where the bare pattern would say little. */
function friendlier(problem: SchemaProblem, body: Record<string, unknown>): string {
  if (problem.rule !== 'pattern') return problem.text;
  const field = problem.pointer.slice(1);
  if (problem.pointer === '/slug') return `slug ${JSON.stringify(body['slug'])} must be ${SLUG_RULE}`;
  if (problem.pointer === '/credentialEnv')
    return `credentialEnv ${JSON.stringify(body['credentialEnv'])} must be an environment variable name (letters, digits, underscores)`;
  if (NOT_BLANK_FIELDS.includes(problem.pointer)) return `${field} must not be blank`;
  return problem.text;
}

/** Credential-reference and base-address rules, checked in code. */
function codeProblems(body: Record<string, unknown>, rules: RegistrationRules): string[] {
  const problems: string[] = [];
  if (CREDENTIAL_VALUE_FIELDS.some((f) => f in body)) {
    problems.push(
      'send a credential reference (credentialEnv or credentialFile on the server), never the credential itself',
    );
  }
  if ('credentialEnv' in body === 'credentialFile' in body) {
    problems.push(
      'name exactly one credential reference: credentialEnv (an environment variable name on the server) or credentialFile (a path on the server)',
    );
  }
  const file = body['credentialFile'];
  if (typeof file === 'string') {
    const problem = credentialFileProblem(file);
    if (problem) problems.push(problem);
  }
  const baseUrl = body['baseUrl'];
  if (typeof baseUrl === 'string' && baseUrl.trim() !== '') {
    problems.push(...baseAddressProblems(baseUrl.trim(), rules));
  }
  return problems;
}

/**
 * Validate a registration body against the contract's CoreRegistrationInput, then the rules the schema
 * cannot express. Returns every problem at once so one round trip fixes them all.
 */
export function parseRegistration(
  body: unknown,
  contract: Contract,
  rules: RegistrationRules,
): { ok: true; value: Registration } | { ok: false; problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problems: ['the body must be a JSON object'] };
  const raw = body as Record<string, unknown>;
  const checked = contract.validateRequest(REGISTER_OPERATION, raw);
  if (checked === undefined)
    return {
      ok: false,
      problems: [`the spec in use (${contract.specPath}) defines no request body for ${REGISTER_OPERATION}`],
    };
  const problems = [...checked.problems.map((p) => friendlier(p, raw)), ...codeProblems(raw, rules)];
  if (!checked.valid || problems.length > 0) return { ok: false, problems };

  const b = raw as unknown as RegistrationBody;
  const credential: CredentialRef =
    b.credentialEnv !== undefined ? { env: b.credentialEnv } : { file: b.credentialFile ?? '' };
  return {
    ok: true,
    value: {
      name: b.name.trim(),
      slug: b.slug,
      type: b.type.trim().toUpperCase(),
      category: b.category.trim(),
      geography: b.geography,
      baseUrl: b.baseUrl.trim(),
      authMethod: b.authMethod,
      capabilities: b.capabilities,
      credential,
      ...(b.fulfillment !== undefined ? { fulfillment: b.fulfillment } : {}),
    },
  };
}
