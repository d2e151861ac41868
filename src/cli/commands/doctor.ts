import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadRunOptions } from '../../config/load.js';
import { DEFAULT_CREDENTIAL_ENV, type AuthMethod } from '../../model/contract-constants.js';
import { doctorExitCode, runDoctor } from '../../doctor/doctor.js';
import { doctorReport, renderDoctorJson, renderDoctorText } from '../../doctor/render.js';
import type { DoctorCredential } from '../../doctor/types.js';
import { parseAuthMethod } from '../../http/auth.js';
import { Redactor } from '../../util/redact.js';
import { terminalMode, timeoutText } from '../../report/console.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { UsageError } from '../../model/errors.js';
import type { CliIo } from '../io.js';
import type { SetExit } from '../program.js';

interface DoctorFlags {
  baseUrl?: string;
  auth?: string;
  credentialEnv?: string;
  credentialFile?: string;
  timeout?: string;
  json?: boolean;
  config?: string;
  /** False with --no-color. */
  color?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) throw new UsageError(`--timeout must be a whole number of milliseconds from 100 to 600000 (got "${value}")`);
  return n;
}

function parseBaseUrl(value: string | undefined): string {
  if (!value) throw new UsageError('missing --base-url <url> (the provider API base address)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url "${value}" is not a URL (expected e.g. https://provider.example.com/api)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http(s), got ${url.protocol}`);
  return value;
}

/** Same sources as `run`; a missing variable is not an error here: doctor then skips the auth findings and says how to set it. */
async function readCredential(flags: DoctorFlags, env: NodeJS.ProcessEnv, cwd: string): Promise<DoctorCredential | undefined> {
  if (flags.credentialFile) {
    try {
      // As in `run`: one trailing newline is an editor artefact; anything more is diagnosed.
      const value = (await readFile(resolve(cwd, flags.credentialFile), 'utf8')).replace(/\r?\n$/, '');
      return { value, source: `the file ${flags.credentialFile}` };
    } catch (e) {
      throw new UsageError(`cannot read --credential-file ${flags.credentialFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const name = flags.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  const value = env[name];
  return value === undefined ? undefined : { value, source: name };
}

/** `provcert doctor`: a fast connectivity diagnosis (exit 0 nothing failed, 1 something failed, 2 usage). */
export function registerDoctor(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('doctor')
    .description('diagnose connectivity to a provider before a full run: DNS, TCP, TLS, HTTPS, base path, routes, auth header, credential (exit 0 ok, 1 a check failed, 2 usage)')
    .option('--base-url <url>', 'provider API base address')
    .option('--auth <method>', 'API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (default: try all three and name the one accepted)')
    .option('--credential-env <name>', 'environment variable holding the credential (default PROVIDER_API_KEY)')
    .option('--credential-file <path>', 'file holding the credential')
    .option('--timeout <ms>', 'per request and connection attempt (default 10000)')
    .option('--config <file>', 'read defaults from this config file (default ./provcert.config.yaml if present)')
    .option('--json', 'print the findings as JSON')
    .option('--no-color', 'no colour (also NO_COLOR, CI, TERM=dumb, or output not a terminal)')
    .action(async (flags: DoctorFlags) => {
      const { baseUrl, auth, credentialEnv, credentialFile, timeout } = flags;
      const merged = await loadRunOptions({ flags: { baseUrl, auth, credentialEnv, credentialFile, timeout }, env: io.env, cwd: io.cwd, ...(flags.config ? { configPath: flags.config } : {}) });
      const url = parseBaseUrl(merged.baseUrl);
      let authMethod: AuthMethod | undefined;
      if (merged.auth) {
        authMethod = parseAuthMethod(merged.auth);
        if (!authMethod) throw new UsageError(`--auth "${merged.auth}" is not an auth method; use API_KEY, BEARER_TOKEN or HMAC_SIGNATURE (aliases api-key, bearer, hmac)`);
      }
      const timeoutMs = parseTimeout(merged.timeout);
      const credential = await readCredential(merged, io.env, io.cwd);
      // What is being probed goes to stderr as it starts (a probe may wait the whole timeout); the findings to stdout.
      const progress = (step: string): void => {
        io.stderr.write(`doctor: ${sanitizeTerminalText(step, { oneLine: true })}, up to ${timeoutText(timeoutMs)}…\n`);
      };
      const findings = await runDoctor({ baseUrl: url, timeoutMs, progress, ...(authMethod ? { authMethod } : {}), ...(credential ? { credential } : {}) });
      const report = doctorReport(url, authMethod, findings);
      const color = terminalMode(io.stdout, io.env, { noColor: flags.color === false }).color;
      const text = flags.json ? renderDoctorJson(report) : renderDoctorText(report, { color });
      // Last line of defence: nothing the provider echoed can carry the credential out.
      io.stdout.write(new Redactor([credential?.value]).text(text));
      setExit(doctorExitCode(findings));
    });
}
