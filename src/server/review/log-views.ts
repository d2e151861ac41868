import type { components } from '../../contract/generated/contract-types.js';
import { eventIdentity, type ReceivedWebhook } from '../../model/webhooks.js';
import type { OperationEntry } from './operations-log.js';

/**
 * The operations log as GET /admin/logs/events and /admin/logs/export show it (CoreLogEvent): one flat
 * record per registration, certification, review decision or webhook verdict. Internal notes, secrets,
 * tokens and credentials are never part of it (the caller masks the rest with the server's Redactor).
 */

export const LOG_KINDS = ['registration', 'certification', 'decision', 'webhook'] as const;

/** One record of the log: the spec's CoreLogEvent (spec/openapi.yaml is the one source of its shape). */
export type LogEvent = components['schemas']['CoreLogEvent'];

/** The CSV columns, in order (every LogEvent field). */
export const CSV_COLUMNS: readonly (keyof LogEvent)[] = [
  'id',
  'at',
  'kind',
  'slug',
  'actor',
  'summary',
  'trigger',
  'from',
  'to',
  'reasonCode',
  'reason',
  'certificationId',
  'verdict',
  'configVersion',
  'eventId',
  'eventType',
  'actionId',
  'newStatus',
  'verified',
  'answeredStatus',
  'problem',
];

export function operationEvent(e: OperationEntry): LogEvent {
  const base = { id: `op-${e.seq}`, at: e.at, slug: e.slug, actor: e.actor };
  if (e.kind === 'registration')
    return {
      ...base,
      kind: 'registration',
      summary: `${e.created ? 'registered' : 'registration updated'}${e.recertify ? ' (certification required)' : ''}`,
      configVersion: e.configVersion,
    };
  if (e.kind === 'certification')
    return {
      ...base,
      kind: 'certification',
      summary: `certification ${e.verdict}`,
      certificationId: e.certificationId,
      verdict: e.verdict,
      configVersion: e.configVersion,
    };
  // internalNote is deliberately not copied.
  return {
    ...base,
    kind: 'decision',
    summary: `${e.trigger}: ${e.from} → ${e.to}`,
    trigger: e.trigger,
    from: e.from,
    to: e.to,
    ...(e.reasonCode !== undefined ? { reasonCode: e.reasonCode } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
  };
}

export function webhookEvent(w: ReceivedWebhook, slug: string): LogEvent {
  const identity = eventIdentity(w);
  return {
    id: `wh-${slug}-${w.restored ? 'r' : ''}${w.seq}`,
    at: w.receivedAt,
    kind: 'webhook',
    slug,
    summary: `webhook ${w.verified ? (w.duplicate ? 'duplicate' : 'accepted') : 'rejected'} (${w.answeredStatus})`,
    ...identity,
    verified: w.verified,
    answeredStatus: w.answeredStatus,
    ...(w.problem ? { problem: w.problem } : {}),
  };
}

/** One CSV cell: quoted when needed, and a leading = + - @ defused so a spreadsheet never runs it. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(events: readonly LogEvent[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const e of events) rows.push(CSV_COLUMNS.map((c) => cell(e[c])).join(','));
  return `${rows.join('\r\n')}\r\n`;
}
