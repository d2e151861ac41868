import type { RunConfig } from '../model/run-config.js';
import { shellLine } from '../util/shell-word.js';

/**
 * The one place below the cli that writes provcert command lines: reproduce commands the user runs as they are, as
 * curl lines spell curl's flags (test/cli/flag-text.test.ts lets this file spell provcert's).
 *
 * A webhook finding is about the event the provider sends, never a request provcert makes: its reproduce says so and
 * sends one correctly signed event to the same receiver, to tell the receiver from the provider.
 */
export function sendEventCommand(config: RunConfig, url: string, slug: string, actionId: string | undefined): string {
  const secret = config.webhookSecretSource.kind === 'env' ? ['--secret-env', config.webhookSecretSource.name] : [];
  const action = actionId ? ['--action-id', actionId] : [];
  return [
    '# the provider sends this event (its webhook timeline is above); a correctly signed one for comparison:',
    shellLine([
      'provcert',
      'send-event',
      '--to',
      url,
      '--slug',
      slug,
      '--status',
      'AWAITING_PAYMENT',
      ...action,
      ...secret,
    ]),
  ].join('\n');
}

/**
 * How to watch, from a second terminal, the webhooks a provider sends to a running `provcert run`: its receiver lists
 * them to a caller signing with the webhook secret. Undefined when the run generated its secret (no variable names
 * it, so no other command can sign).
 */
export function followEventsCommand(config: RunConfig, receiverUrl: string, slug: string): string | undefined {
  if (config.webhookSecretSource.kind !== 'env') return undefined;
  return shellLine([
    'provcert',
    'events',
    slug,
    '--follow',
    '--core',
    receiverUrl,
    '--secret-env',
    config.webhookSecretSource.name,
  ]);
}
