import { Command } from 'commander';
import { toolVersion } from '../util/package-root.js';
import { registerCoverage } from './commands/coverage.js';
import { registerDemo } from './commands/demo.js';
import { registerDoctor } from './commands/doctor.js';
import { registerInit } from './commands/init.js';
import { registerList } from './commands/list.js';
import { registerMockProvider } from './commands/mock-provider.js';
import { registerReplay } from './commands/replay.js';
import { registerReport } from './commands/report.js';
import { registerRun } from './commands/run.js';
import { registerSendEvent } from './commands/send-event.js';
import { registerServe } from './commands/serve.js';
import { registerSign } from './commands/sign.js';
import { registerValidate } from './commands/validate.js';
import type { CliIo } from './io.js';

export type SetExit = (code: number) => void;

/** The commander program: wiring only; each command lives in its own file under commands/. */
export function buildProgram(io: CliIo, setExit: SetExit): Command {
  const program = new Command('provcert')
    .description('Certify a provider backend against the Provider Integration Contract 1.0.0')
    .version(toolVersion, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  for (const register of [registerDemo, registerRun, registerValidate, registerList, registerCoverage, registerReplay, registerReport, registerDoctor, registerInit, registerMockProvider, registerServe, registerSign, registerSendEvent]) {
    register(program, io, setExit);
  }
  return program;
}
