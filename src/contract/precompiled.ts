import { readFile } from 'node:fs/promises';
import { BUNDLED_SPEC_PATH } from './bundled-path.js';
import type { Contract } from './contract.js';
import { type ContractValidator, contractFromData } from './contract-from-data.js';
import { contractData, specSha256, validators } from './generated/contract-validators.js';
import { sha256 } from './spec-hash.js';

/** The bundled contract from the validators `npm run build` generated: nothing to parse or compile. */
export function precompiledContract(): Contract {
  return contractFromData(contractData, BUNDLED_SPEC_PATH, (id): ContractValidator => {
    const validate = Object.hasOwn(validators, id) ? validators[id] : undefined;
    if (!validate) throw new Error(`provcert: no precompiled validator "${id}"; run npm run build`);
    return validate;
  });
}

/**
 * The precompiled contract, or undefined when `specFile` (spec/openapi.yaml) is not the document it was generated from
 * (edited since the last build, or unreadable): the caller then compiles the spec at run time, so an edit
 * takes effect before the next build. Hashing the file costs well under a millisecond; parsing it does not.
 */
export async function loadPrecompiledContract(specFile: string = BUNDLED_SPEC_PATH): Promise<Contract | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(specFile);
  } catch {
    return undefined;
  }
  return sha256(bytes) === specSha256 ? precompiledContract() : undefined;
}
