/**
 * What a status event says about why an action ended (contract, Events and Reason codes): terminal events carry a
 * stable reason code and a human description, and no reason text carries secrets, card data, passwords or one-time
 * codes (DECISIONS.md, Webhooks).
 */

const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['CANCELLED', 'FAILED']);

/** Digits of a card number: 13–19 digits, spaces or dashes allowed between them. */
const CARD_CANDIDATE = /\d(?:[ -]?\d){12,18}/g;
const PASSWORD = /\b(pass(?:word|wd|code)?|pwd)\b\s*[:=]\s*\S+/i;
/**
 * An identity document named with its number: "passport X1234567", "ID card no. 123456789", "SSN 078-05-1120".
 * A reason never needs one ("unnecessary identity documents"); the name alone, without a number, is allowed.
 */
const IDENTITY_DOCUMENT =
  /\b(passport|national id|id card|identity card|identity document|driver'?s licen[cs]e|driving licen[cs]e|ssn|social security(?: number)?)\b\W{0,4}(?:no\.?|number|#)?\W{0,3}[A-Z]{0,3}\d[\dA-Z -]{4,}/i;
const ONE_TIME_CODE =
  /\b(otp|one[- ]time (?:code|password)|verification code|security code|cvv|cvc|pin)\b\D{0,12}\d{3,8}\b/i;

function luhnValid(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return total % 10 === 0;
}

/** Why a reason text is unsafe to show, or undefined. `secrets` are the run's credential and webhook secret. */
export function unsafeReasonContent(text: string, secrets: readonly string[]): string | undefined {
  for (const match of text.match(CARD_CANDIDATE) ?? []) {
    const digits = match.replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return 'a card number (Luhn-valid digits)';
  }
  if (secrets.some((s) => s.length >= 6 && text.includes(s))) return "this run's credential or webhook secret";
  if (PASSWORD.test(text)) return 'a password';
  if (ONE_TIME_CODE.test(text)) return 'a one-time code';
  if (IDENTITY_DOCUMENT.test(text)) return 'an identity document number';
  return undefined;
}

export interface ReasonFinding {
  requirement: 'WEBHOOK-TERMINAL-REASON' | 'REASON-NO-SECRETS';
  message: string;
}

const str = (event: Record<string, unknown>, name: string): string | undefined =>
  typeof event[name] === 'string' ? event[name] : undefined;

/** The problems of one accepted event's reason fields; `label` names the event in messages. */
export function reasonProblems(
  event: Record<string, unknown>,
  label: string,
  secrets: readonly string[],
): ReasonFinding[] {
  const found: ReasonFinding[] = [];
  const status = str(event, 'newStatus');
  if (status !== undefined && TERMINAL_STATUSES.has(status)) {
    const missing = ['reasonCode', 'reason'].filter((k) => (str(event, k) ?? '').trim() === '');
    if (missing.length > 0) {
      found.push({
        requirement: 'WEBHOOK-TERMINAL-REASON',
        message: `${label} reports the terminal status ${status} without ${missing.join(' and ')}; terminal events carry a stable reason code and a human description`,
      });
    }
  }
  for (const name of ['reason', 'description', 'reasonCode']) {
    const text = str(event, name);
    const why = text === undefined ? undefined : unsafeReasonContent(text, secrets);
    if (why)
      found.push({
        requirement: 'REASON-NO-SECRETS',
        message: `${label} has a ${name} that contains ${why}; a reason must not contain secrets, card data, passwords, one-time codes or unnecessary identity documents`,
      });
  }
  return found;
}
