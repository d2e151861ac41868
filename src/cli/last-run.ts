import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECK_IDS, type CheckId } from '../model/check-ids.js';
import type { RunReport } from '../model/report.js';
import { RUN_VERDICTS, type RunVerdict } from '../model/verdict.js';
import { isRecord } from '../util/json.js';

/** Where `run` keeps what `--last-failed` reruns (like Playwright's test-results/.last-run.json): git-ignored. */
export const STATE_DIR = '.provcert';
export const LAST_RUN_FILE = `${STATE_DIR}/last-run.json`;

/** What the last runs in a folder left to rerun. No secrets: check ids, the verdict, and the masked address. */
export interface LastRun {
  version: 1;
  verdict: RunVerdict;
  finishedAt: string;
  baseUrl: string;
  /** Checks that failed, errored or could not test their rule, and have not been judged since. */
  failed: CheckId[];
  /** Checks a failure kept from running (skipped because of it, or cut off by an interrupt), not judged since. */
  blocked: CheckId[];
}

const isFailure = (status: string): boolean => status === 'fail' || status === 'error' || status === 'untested';

const ids = (value: unknown): CheckId[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string' && (CHECK_IDS as readonly string[]).includes(v))
    ? (value as CheckId[])
    : undefined;

/** The state file's content, or why it cannot be used; undefined when there is none (a fresh folder). */
export async function readLastRun(cwd: string): Promise<LastRun | { unusable: string } | undefined> {
  let text: string;
  try {
    text = await readFile(join(cwd, LAST_RUN_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { unusable: `cannot read it (${code ?? 'error'})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { unusable: 'it is not JSON' };
  }
  if (!isRecord(json) || json['version'] !== 1) return { unusable: 'it is not a provcert state file of version 1' };
  const failed = ids(json['failed']);
  const blocked = ids(json['blocked']);
  const verdict = RUN_VERDICTS.find((v) => v === json['verdict']);
  if (!failed || !blocked || !verdict) return { unusable: 'its failed, blocked or verdict entry is not readable' };
  const text_ = (key: string): string => (typeof json[key] === 'string' ? json[key] : '');
  return { version: 1, verdict, finishedAt: text_('finishedAt'), baseUrl: text_('baseUrl'), failed, blocked };
}

/**
 * This run's failures, and the earlier ones it did not judge again (a narrowed run does not clear what it left out),
 * when the earlier run was against the same provider.
 */
export function nextLastRun(report: RunReport, baseUrl: string, previous: LastRun | undefined): LastRun {
  const judged = new Set(report.checks.filter((c) => c.status !== 'skip').map((c) => c.id));
  const failedNow = report.checks.filter((c) => isFailure(c.status)).map((c) => c.id);
  const blockedNow = [
    ...report.checks.filter((c) => c.status === 'skip' && c.skippedBecauseOf !== undefined).map((c) => c.id),
    ...(report.notRun ?? []),
  ];
  const earlier = previous?.baseUrl === baseUrl ? previous : undefined;
  const still = (list: readonly CheckId[] = []): CheckId[] =>
    list.filter((id) => !judged.has(id) && !blockedNow.includes(id) && !failedNow.includes(id));
  const inOrder = (list: readonly CheckId[]): CheckId[] => CHECK_IDS.filter((id) => list.includes(id));
  const failed = inOrder([...failedNow, ...still(earlier?.failed)]);
  return {
    version: 1,
    verdict: report.verdict,
    finishedAt: report.finishedAt,
    baseUrl,
    failed,
    blocked: inOrder([...blockedNow, ...still(earlier?.blocked)].filter((id) => !failed.includes(id))),
  };
}

/** Writes the state (and a .gitignore that keeps the folder out of git, as pytest's cache does); atomic by rename. */
export async function writeLastRun(cwd: string, state: LastRun): Promise<void> {
  const dir = join(cwd, STATE_DIR);
  await mkdir(dir, { recursive: false }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await writeFile(join(dir, '.gitignore'), '# provcert run state (--last-failed)\n*\n');
  const path = join(cwd, LAST_RUN_FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
