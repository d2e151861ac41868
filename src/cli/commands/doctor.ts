import { loadRunSources } from '../../config/load.js';
import { doctorExitCode, runDoctor } from '../../doctor/doctor.js';
import { doctorReport, renderDoctorJson, renderDoctorText } from '../../doctor/render.js';
import type { DoctorCredential } from '../../doctor/types.js';
import { type AuthMethod, DEFAULT_CREDENTIAL_ENV } from '../../model/contract-constants.js';
import { DEFAULT_RUN_CONFIG } from '../../model/run-config.js';
import { mergeRunValues, type RunValues } from '../../model/run-values.js';
import { timeoutText } from '../../report/console.js';
import { Redactor } from '../../util/redact.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { terminalMode } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { parseBaseUrlFlag, readCredentialFile } from '../options.js';
import { parseRunFlags } from '../run-flags.js';
import { spellAsFlag } from '../setting-flags.js';

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

/** Same sources as `run`; a missing variable is not an error here: doctor then skips the auth findings and says how to set it. */
async function readCredential(
  flags: Pick<RunValues, 'credentialEnv' | 'credentialFile'>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<DoctorCredential | undefined> {
  if (flags.credentialFile)
    return { value: readCredentialFile(flags.credentialFile, cwd).value, source: `the file ${flags.credentialFile}` };
  const name = flags.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  const value = env[name];
  return value === undefined ? undefined : { value, source: name };
}

/** `provcert doctor`: a fast connectivity diagnosis (exit 0 nothing failed, 1 something failed, 2 usage). */
export async function execute({ io }: CommandContext, flags: DoctorFlags): Promise<number> {
  const { baseUrl, auth, credentialEnv, credentialFile, timeout } = flags;
  const { env, file } = await loadRunSources({ env: io.env, cwd: io.cwd, configPath: flags.config });
  const merged = mergeRunValues({
    flags: parseRunFlags({ baseUrl, auth, credentialEnv, credentialFile, timeout }),
    env,
    file,
  });
  const url = parseBaseUrlFlag(merged.baseUrl, true);
  const authMethod: AuthMethod | undefined = merged.auth;
  const timeoutMs = merged.timeout ?? DEFAULT_RUN_CONFIG.timeout;
  const credential = await readCredential(merged, io.env, io.cwd);
  // What is being probed goes to stderr as it starts (a probe may wait the whole timeout); the findings to stdout.
  const progress = (step: string): void => {
    io.stderr.write(`doctor: ${sanitizeTerminalText(step, { oneLine: true })}, up to ${timeoutText(timeoutMs)}…\n`);
  };
  const findings = await runDoctor({
    baseUrl: url,
    timeoutMs,
    progress,
    spell: spellAsFlag,
    ...(authMethod ? { authMethod } : {}),
    ...(credential ? { credential } : {}),
  });
  const report = doctorReport(url, authMethod, findings);
  const color = terminalMode(io.stdout, io.env, { noColor: flags.color === false }).color;
  const text = flags.json ? renderDoctorJson(report) : renderDoctorText(report, { color });
  // Last line of defence: nothing the provider echoed can carry the credential out.
  io.stdout.write(new Redactor([credential?.value]).text(text));
  return doctorExitCode(findings);
}
