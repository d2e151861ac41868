import { type KeyObject, sign, verify } from 'node:crypto';

/** The payload type of an in-toto Statement in a DSSE envelope. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** A DSSE envelope (github.com/secure-systems-lab/dsse, envelope.md): payload and signatures in base64. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/**
 * The Pre-Authentication Encoding DSSE signs (protocol.md):
 * "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths as ASCII decimal byte counts.
 */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'ascii'),
    type,
    Buffer.from(` ${body.length} `, 'ascii'),
    body,
  ]);
}

/** Signs `body` into an envelope with an Ed25519 key named `keyid`. */
export function signEnvelope(payloadType: string, body: Buffer, key: KeyObject, keyid: string): DsseEnvelope {
  const sig = sign(null, pae(payloadType, body), key);
  return { payloadType, payload: body.toString('base64'), signatures: [{ keyid, sig: sig.toString('base64') }] };
}

/** Strict standard base64 (the envelope's encoding), or undefined: a re-encoded payload is not the signed one. */
export function strictBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

/** Whether one signature verifies the envelope's PAE with `key`. */
export function signatureVerifies(envelope: DsseEnvelope, body: Buffer, sig: Buffer, key: KeyObject): boolean {
  try {
    return verify(null, pae(envelope.payloadType, body), key, sig);
  } catch {
    return false;
  }
}
