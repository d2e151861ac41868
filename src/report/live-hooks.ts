import type { CheckProgress, CheckResult, RunBeginInfo, RunStartInfo, WebhookTimelineEntry } from '../model/report.js';

/** The live hooks runCertification calls (RunDeps['hooks']), every one optional. */
export interface LiveRunHooks {
  onRunBegin?(info: RunBeginInfo): void;
  onRunStart?(info: RunStartInfo): void;
  onCheckStart?(id: string, title: string): void;
  onCheckProgress?(id: string, update: CheckProgress): void;
  onCheckEnd?(result: CheckResult): void;
  onWebhook?(entry: WebhookTimelineEntry): void;
}

/**
 * One set of hooks that calls each given set in order (the console, then the event stream). Only hooks some
 * set has are present, so the run does no work (e.g. subscribing to webhooks) nobody listens to.
 */
export function fanOutHooks(...all: readonly (LiveRunHooks | undefined)[]): LiveRunHooks {
  const sets = all.filter((h): h is LiveRunHooks => h !== undefined);
  const has = (name: keyof LiveRunHooks): boolean => sets.some((h) => h[name] !== undefined);
  return {
    ...(has('onRunBegin') ? { onRunBegin: (info) => sets.forEach((h) => h.onRunBegin?.(info)) } : {}),
    ...(has('onRunStart') ? { onRunStart: (info) => sets.forEach((h) => h.onRunStart?.(info)) } : {}),
    ...(has('onCheckStart') ? { onCheckStart: (id, title) => sets.forEach((h) => h.onCheckStart?.(id, title)) } : {}),
    ...(has('onCheckProgress')
      ? { onCheckProgress: (id, update) => sets.forEach((h) => h.onCheckProgress?.(id, update)) }
      : {}),
    ...(has('onCheckEnd') ? { onCheckEnd: (result) => sets.forEach((h) => h.onCheckEnd?.(result)) } : {}),
    ...(has('onWebhook') ? { onWebhook: (entry) => sets.forEach((h) => h.onWebhook?.(entry)) } : {}),
  } satisfies LiveRunHooks;
}
