import { readFileSync } from 'node:fs';
import { BUNDLED_SPEC_PATH } from '../contract/bundled-path.js';
import { BUNDLED_REQUIREMENTS_PATH } from '../contract/requirements.js';
import { CONTRACT_VERSION } from '../model/contract-constants.js';
import { toolVersion } from '../util/package-root.js';
import { sha256Hex } from './canonical.js';

/** What this provcert ships: the contract and catalog a certificate names by digest, and its version. */
export interface Shipped {
  contractVersion: string;
  specDigest: string;
  catalogDigest: string;
  toolVersion: string;
}

let shipped: Shipped | undefined;

export function shippedDigests(): Shipped {
  shipped ??= {
    contractVersion: CONTRACT_VERSION,
    specDigest: sha256Hex(readFileSync(BUNDLED_SPEC_PATH)),
    catalogDigest: sha256Hex(readFileSync(BUNDLED_REQUIREMENTS_PATH)),
    toolVersion,
  };
  return shipped;
}
