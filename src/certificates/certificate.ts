import type { KeyObject } from 'node:crypto';
import { type DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, signEnvelope } from './dsse.js';
import { publicJwkOf } from './keys.js';
import type { Statement } from './statement.js';

/** A certificate: an in-toto Statement in a DSSE envelope signed with an Ed25519 key (kid = its JWK thumbprint). */
export type Certificate = DsseEnvelope;

export function signStatement(statement: Statement, key: KeyObject, kid = publicJwkOf(key).kid): Certificate {
  return signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), key, kid);
}
