import { Command } from 'commander';
import { flagNameOf } from '../config/options.js';
import { ACTION_STATUSES, DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '../model/ingest-limits.js';
import { REFERENCE_SLUG } from '../reference-provider/info.js';
import { VARIANTS } from '../reference-provider/variants.js';
import { toolVersion } from '../util/package-root.js';
import type { CommandSpec } from './command.js';
import type { CliIo } from './io.js';
import {
  authOption,
  baseUrlOption,
  collectList as collect,
  credentialOptions,
  eventsOption,
  MOCK_PROVIDER_DEFAULT_PORT,
  noColorOption,
  reportFileOptions,
  runOptions,
  webhookReceiverOptions,
} from './options.js';

/** `serve`'s resource limits, one flag each (--max-body-bytes …). */
function withLimitOptions(command: Command): Command {
  for (const name of LIMIT_NAMES)
    command.option(`${flagNameOf(name)} <n>`, `limit: ${name} (default ${DEFAULT_LIMITS[name]})`);
  return command;
}

/**
 * Every command: its declaration, and the module that runs it (imported only when it runs). Adding a command
 * is one entry here and one module under commands/ exporting `execute`.
 */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    declare: (c) =>
      runOptions(
        c.description(
          'certify a live provider end to end (exit 0 passed, 1 failed or incomplete, 2 usage/config/fatal, 130/143 stopped by Ctrl-C/SIGTERM)',
        ),
      )
        .option(
          '--last-failed',
          'rerun only what the last run in this folder left failed, and what that kept from running (.provcert/last-run.json; every check when there is none)',
        )
        .option('--attest <file>', 'also write the run as a signed in-toto certificate (provcert verify checks it)')
        .option(
          '--attest-key <pemfile>',
          'the Ed25519 private key (PKCS #8 PEM) that signs --attest, e.g. a CI secret',
        ),
    signals: 'stop',
    load: () => import('./commands/run.js'),
  },
  {
    name: 'batch',
    declare: (c) =>
      noColorOption(
        eventsOption(
          c
            .description(
              'certify every provider of a fleet file in one process, or one shard of it (exit 0 all passed, 1 a provider or ' +
                'an expected failure failed, 2 usage/config, 130/143 stopped by Ctrl-C/SIGTERM)',
            )
            .argument('<fleet-file>', 'YAML or JSON fleet file (spec/fleet.schema.json)')
            .option('--concurrency <n>', 'providers certified at once (default 8)')
            .option('--shard <i/n>', 'certify only shard i of n (1-based; a provider always lands in the same shard)')
            .option(
              '--shard-index-env <name>',
              'read the shard index, counted from 0, from this variable (JOB_COMPLETION_INDEX)',
            )
            .option('--shard-total <n>', 'how many shards there are (with --shard-index-env)')
            .option('--out <dir>', 'folder for the fleet and per-provider reports', 'provcert-fleet')
            .option('--markdown <file>', 'also write the fleet summary as Markdown here (e.g. $GITHUB_STEP_SUMMARY)')
            .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract'),
        ),
      ),
    signals: 'stop',
    load: () => import('./commands/batch.js'),
  },
  {
    name: 'demo',
    declare: (c) =>
      noColorOption(
        eventsOption(
          reportFileOptions(
            authOption(
              c
                .description(
                  'certify the bundled reference provider end to end (no configuration); --fault NAME shows a failure',
                )
                .option(
                  '--fault <name>',
                  'switch on a fault of the reference provider (repeatable; see provcert mock-provider --list-faults)',
                  collect,
                ),
              'auth method of the reference provider',
              'API_KEY',
            )
              .option('--quote-ttl <seconds>', 'quote validity of the reference provider (default 5)')
              .option(
                '--keep-alive',
                'keep the reference provider up after the run (until Ctrl-C) and print the export line its reproduce commands need',
              ),
          ),
        ),
      ),
    signals: 'stop',
    load: () => import('./commands/demo.js'),
  },
  {
    name: 'validate',
    declare: (c) =>
      c
        .description(
          'validate a JSON payload offline against a schema of the contract (exit 0 valid, 1 invalid, 2 unusable input)',
        )
        .argument('[schema]', 'schema name, e.g. Offering (see --list)')
        .argument('[file]', 'JSON file, or - for standard input', '-')
        .option('--list', 'list the schema names and exit')
        .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract'),
    load: () => import('./commands/validate.js'),
  },
  {
    name: 'list',
    declare: (c) =>
      c
        .description('list every check: id, title, the contract rule it enforces, where it applies')
        .option('--json', 'print as JSON')
        .option('--markdown', 'print as a Markdown table (the one in docs/reference/checks.md)'),
    load: () => import('./commands/list.js'),
  },
  {
    name: 'coverage',
    declare: (c) =>
      c
        .description(
          'list every contract requirement with the checks that verify it and the reference-provider faults that prove them; exit 1 when a checked requirement is unproven',
        )
        .option('--json', 'print as JSON'),
    load: () => import('./commands/coverage.js'),
  },
  {
    name: 'replay',
    declare: (c) =>
      webhookReceiverOptions(
        c
          .description(
            'rerun the failed checks of a JSON report (or one with --check) and say of each: still fails, now errors, not run, fixed, ' +
              'or was not a failure (exit 0 when every replayed failure is fixed and nothing fails now, 1 otherwise, 2 usage)',
          )
          .argument('<report>', 'JSON report of an earlier run (provcert run --json FILE)')
          .option('--check <id>', 'rerun only this check (also one that passed or was skipped)')
          .option('--explore <n>', "generated orders quote-explore sends (default: the report's run's, with its seed)")
          .option('--base-url <url>', "the provider's base URL (a report's own is only shown: it is untrusted input)")
          .option('--auth <method>', "API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (the report's is only shown)")
          .option('--local', 'permit http:// and loopback base addresses')
          .option(
            '--credential-env <name>',
            `read the credential from this environment variable (default ${DEFAULT_CREDENTIAL_ENV}; never one a report names)`,
          )
          .option('--credential-file <path>', 'read the credential from this file (never one a report names)')
          .option(
            '--webhook-secret-env <name>',
            `read the webhook secret from this environment variable (default ${DEFAULT_WEBHOOK_SECRET_ENV})`,
          ),
        // The report's receiver address unless given: a provider configured for it delivers there.
        { port: "default: the report's run's", host: "default: the report's run's" },
      )
        .option(
          '--config <file>',
          'read --base-url, --auth and the secret sources from this config file (only a file named here: never ./provcert.config.yaml or PROVCERT_CONFIG)',
        )
        .option(
          '--trust-report-inputs',
          'use the address, auth method and secret sources the report names (prints what it will contact and read)',
        ),
    signals: 'stop',
    load: () => import('./commands/replay.js'),
  },
  {
    name: 'report',
    declare: (c) =>
      c
        .description(
          'render a stored JSON report (provcert run --json FILE) as console text, HTML, Markdown, JUnit, JSON or GitHub annotations, ' +
            'without re-running (exit 0 when rendered, whatever the verdict; 2 when the report or an output path is unusable)',
        )
        .argument('<report>', 'JSON report of an earlier run')
        .option('--json <file>', 'write the JSON report (- for stdout)')
        .option('--junit <file>', 'write a JUnit XML report (- for stdout)')
        .option('--markdown <file>', 'write a Markdown summary (- for stdout)')
        .option('--html <file>', 'write a self-contained HTML report (- for stdout)')
        .option('--github', 'print GitHub Actions annotations')
        .option(
          '--reporter <names>',
          'reporters, comma-separated: console, json, junit, markdown, html, github (default: console when no file is named)',
        ),
    load: () => import('./commands/report.js'),
  },
  {
    name: 'verify',
    declare: (c) =>
      c
        .description(
          "verify a certificate (serve's GET /providers/{slug}/certificate, or run --attest): its signature against the keys you trust, " +
            'then what the shipped contract and catalog require of it (exit 0 valid, 1 refused naming why, 2 unusable input)',
        )
        .argument('<certificate>', 'the certificate file (a DSSE envelope)')
        .option('--jwks <url|file>', "the issuer's key set (serve: <core>/api/v1/.well-known/jwks.json)")
        .option('--key <pemfile>', 'or one Ed25519 public key in PEM (the signer of run --attest)')
        .option('--max-age <duration>', 'refuse a certificate issued longer ago (30d, 12h, 90m, 3600s)')
        .option(
          '--config-digest <sha256>',
          "refuse a certificate for another configuration than the provider's current one",
        )
        .option(
          '--allow-waiver <checks>',
          'checks (or requirement ids) whose waiver your policy accepts (comma-separated; default none)',
        ),
    load: () => import('./commands/verify.js'),
  },
  {
    name: 'doctor',
    declare: (c) =>
      noColorOption(
        credentialOptions(
          authOption(
            baseUrlOption(
              c.description(
                'diagnose connectivity to a provider before a full run: DNS, TCP, TLS, HTTPS, base path, routes, auth header, credential (exit 0 ok, 1 a check failed, 2 usage)',
              ),
            ),
            'API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (default: try all three and name the one accepted)',
          ),
        )
          .option('--timeout <ms>', 'per request and connection attempt (default 10000)')
          .option('--config <file>', 'read defaults from this config file (default ./provcert.config.yaml if present)')
          .option('--json', 'print the findings as JSON'),
      ),
    load: () => import('./commands/doctor.js'),
  },
  {
    name: 'init',
    declare: (c) =>
      c
        .description('write a commented starter provcert.config.yaml (every run option with its default)')
        .option('--force', 'overwrite an existing file')
        .option('--config <file>', 'write to this file instead of provcert.config.yaml'),
    load: () => import('./commands/init.js'),
  },
  {
    name: 'mock-provider',
    declare: (c) =>
      c
        .description(
          `serve the reference provider (slug "${REFERENCE_SLUG}" unless --slug; every provider route; --fault NAME breaks one contract rule)`,
        )
        .option('--slug <slug>', `provider slug its answers and events carry (default ${REFERENCE_SLUG})`)
        .option('--name <name>', 'provider name (default Demo Kitchen; for another slug, the slug in title case)')
        .option('--port <n>', 'port to listen on (0 = any free port)', String(MOCK_PROVIDER_DEFAULT_PORT))
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option(
          '--auth <method>',
          'API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (aliases: api-key, bearer, hmac)',
          'API_KEY',
        )
        .option('--fault <name>', 'switch on a fault (repeatable, or comma-separated)', collect, [])
        .option(
          '--variant <name>',
          `a conforming variant: ${VARIANTS.join(', ')} (minimal omits every optional field; noisy adds vendor fields and repeats events; bounded has its own quantity and cart bounds; lines-reordered and options-reordered reverse quote lines or options; id-lookup-only answers GET /actions/{id} by id only, not by publicId)`,
          'standard',
        )
        .option('--list-faults', 'list the faults: name, the check that catches it, what it breaks')
        .option(
          '--webhook-url <url>',
          'where signed status events are posted, e.g. http://127.0.0.1:8787/api/v1/webhooks/demo-kitchen (default: not sent; needs the webhook secret)',
        )
        .option('--quote-ttl <seconds>', 'quote validity in seconds (default 5)')
        .option(
          '--data-file <path>',
          'JSON file keeping actions and idempotency keys across restarts (default: a temporary file removed on exit)',
        )
        .option('--capabilities <list>', 'declare these capabilities instead of all eleven (comma-separated)')
        .option(
          '--credential-env <name>',
          `environment variable with the credential (default ${DEFAULT_CREDENTIAL_ENV})`,
        )
        .option(
          '--webhook-secret-env <name>',
          `environment variable with the webhook secret that signs events (default ${DEFAULT_WEBHOOK_SECRET_ENV}; only needed with --webhook-url)`,
        ),
    signals: 'serve',
    load: () => import('./commands/mock-provider.js'),
  },
  {
    name: 'serve',
    declare: (c) =>
      withLimitOptions(
        c
          .description('run the core server: ingest signed provider webhooks, register and certify providers')
          .option('--port <n>', 'port to listen on (default 8787; 0 = any free port)')
          .option('--host <host>', 'address to listen on (default 127.0.0.1)')
          .option('--data-dir <dir>', 'where events, registrations and certifications are kept (default ./.provcert)')
          .option(
            '--config <file>',
            'YAML/JSON settings: port, host, dataDir, local, webhookSecretEnv, adminTokenEnv, credentialDir, maxExpiryWait, webhookSecretOverlap, signingKey, the limits below by name (maxBodyBytes, …), providers[{slug, webhookSecretEnv}]',
          )
          .option(
            '--slug <slugs>',
            'accept webhooks for these provider slugs with the server webhook secret (comma-separated)',
          )
          .option(
            '--webhook-secret-env <name>',
            'environment variable with the server webhook secret (default SERVICE_WEBHOOK_SECRET; generated once when unset)',
          )
          .option('--local', 'allow http:// and loopback/private provider base addresses in registrations')
          .option('--max-expiry-wait <s>', 'longest wait in a certification for a quote to expire (default 120)')
          .option(
            '--webhook-secret-overlap <s>',
            "seconds a provider's previous webhook secret still verifies after a rotation (default 0: rotating invalidates it at once)",
          )
          .option(
            '--signing-key <file>',
            "PEM file with the core's Ed25519 signing key for certificates (default: generated once in the data dir)",
          )
          .option(
            '--credential-dir <dir>',
            "registrations' credentialFile references are read from this directory only (default <data-dir>/credentials)",
          )
          .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract'),
      ),
    signals: 'serve',
    load: () => import('./commands/serve.js'),
  },
  {
    name: 'sign',
    declare: (c) =>
      c
        .description(
          'print the x-service-signature of the exact bytes given: lowercase hex HMAC-SHA256 with the webhook secret',
        )
        .argument('[file]', 'file to sign, or - for standard input', '-')
        .option('--secret-env <name>', 'environment variable with the webhook secret (default SERVICE_WEBHOOK_SECRET)'),
    load: () => import('./commands/sign.js'),
  },
  {
    name: 'send-event',
    declare: (c) =>
      c
        .description(
          'post a correctly signed action.status_updated test event and print the answer (exit 0 on 2xx, 1 otherwise or when not delivered, 2 usage)',
        )
        .requiredOption('--to <url>', 'core address (http://host:port), or the full webhook address')
        .requiredOption('--slug <slug>', 'provider slug (path and providerSlug)')
        .option('--status <status>', `newStatus: ${ACTION_STATUSES.join(', ')}`, 'COMPLETED')
        .option('--action-id <id>', 'actionId carried by the event', 'test-action')
        .option('--secret-env <name>', 'environment variable with the webhook secret (default SERVICE_WEBHOOK_SECRET)'),
    load: () => import('./commands/send-event.js'),
  },
  {
    name: 'events',
    declare: (c) =>
      c
        .description(
          "show a core's (or a running run's receiver's) received webhook requests for one provider (signature result, answered status, reason); " +
            '--follow tails new ones until Ctrl-C (exit 0; 1 the core or receiver cannot be reached; 2 usage, unknown slug, refused token or secret)',
        )
        .argument('<slug>', 'provider slug')
        // `events resend …` takes its own --core and --admin-token-env.
        .enablePositionalOptions()
        .option('--follow', 'keep showing events as they arrive (like tail -f), skipping those already stored')
        .option(
          '--core <url>',
          "core address, provcert serve (default http://127.0.0.1:8787), or a running provcert run's receiver (with --secret-env)",
        )
        .option('--json', 'one JSON object per line (CoreEvent of spec/openapi.yaml)')
        .option(
          '--status <list>',
          'only these: accepted, rejected, duplicate or an answered HTTP status (comma-separated)',
          collect,
        )
        .option('--type <list>', 'only these eventType values (comma-separated)', collect)
        .option('--verified', 'only requests whose signature verified')
        .option('--unverified', 'only requests whose signature did not verify')
        .option(
          '--admin-token-env <name>',
          'environment variable with the operator token (default PROVCERT_ADMIN_TOKEN)',
        )
        .option(
          '--secret-env [name]',
          "read a running provcert run's receiver instead: sign the requests with the webhook secret of this environment variable (default SERVICE_WEBHOOK_SECRET; the secret itself is never sent)",
        ),
    signals: 'serve',
    load: () => import('./commands/events.js'),
    subcommands: [
      {
        name: 'resend',
        declare: (c) =>
          c
            .description(
              'post a stored accepted event again, its stored bytes signed afresh with the webhook secret (exit 0 on 2xx, 1 otherwise, 2 usage)',
            )
            .argument('<event-id>', 'eventId of an accepted event stored on the core')
            .requiredOption('--slug <slug>', 'provider slug the event is stored under')
            .requiredOption('--to <url>', 'core address (http://host:port), or the full webhook address')
            .option('--core <url>', 'core to read the event from (default http://127.0.0.1:8787)')
            .option(
              '--admin-token-env <name>',
              'environment variable with the operator token (default PROVCERT_ADMIN_TOKEN)',
            )
            .option(
              '--secret-env <name>',
              'environment variable with the webhook secret (default SERVICE_WEBHOOK_SECRET)',
            ),
        load: () => import('./commands/events-resend.js'),
      },
    ],
  },
  {
    name: 'merge-reports',
    declare: (c) =>
      noColorOption(
        c
          .description(
            'merge the fleet.json of every shard (provcert batch --shard i/n) into one fleet report in every format ' +
              '(exit 0 the fleet passed, 1 failed, 2 the files are not shards of one fleet or cannot be read)',
          )
          .argument('<files...>', 'the fleet.json of each shard')
          .option('--out <dir>', 'folder for the merged fleet reports (default provcert-fleet)')
          .option('--markdown <file>', 'also write the fleet summary in Markdown here (e.g. $GITHUB_STEP_SUMMARY)'),
      ),
    load: () => import('./commands/merge-reports.js'),
  },
];

/** The commander program: declarations only; `dispatch` runs the chosen command's module. */
export function buildProgram(io: CliIo, dispatch: (spec: CommandSpec, args: unknown[]) => Promise<void>): Command {
  const program = new Command('provcert')
    .description('Certify a provider backend against the Provider Integration Contract 1.0.0')
    .version(toolVersion, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // A command's options follow its name, so `events resend` gets its own --core rather than events'.
    .enablePositionalOptions()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  // commander passes the arguments, the options object and the command; the handler takes the first two kinds.
  const add = (parent: Command, spec: CommandSpec): void => {
    const command = spec.declare(parent.command(spec.name));
    for (const sub of spec.subcommands ?? []) add(command, sub);
    command.action(async (...args: unknown[]) => dispatch(spec, args.slice(0, -1)));
  };
  for (const spec of COMMANDS) add(program, spec);
  return program;
}
