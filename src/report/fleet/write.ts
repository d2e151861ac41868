import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FleetReport } from '../../model/fleet-report.js';
import { FILE_REPORTER_NAMES, type FileReporterName } from '../../model/reporter-names.js';
import { makeParentFolders } from '../../util/parent-folders.js';
import { prepareReportTargets } from '../index.js';
import { REPORTERS } from '../reporters.js';
import { renderFleetHtmlIndex } from './html.js';
import { renderFleetJson } from './json.js';
import { renderFleetJUnit } from './junit.js';
import { renderFleetMarkdown } from './markdown.js';
import { providerFileBase } from './rows.js';

/** The fleet files in the output folder. */
export const FLEET_FILES = {
  json: 'fleet.json',
  junit: 'fleet.junit.xml',
  markdown: 'fleet.md',
  html: 'index.html',
} as const;

/** The folder of the per-provider reports, and their extensions. */
export const PROVIDERS_DIR = 'providers';

/** How each file reporter's per-provider file ends (the renderer comes from the one reporter table). */
const PROVIDER_FILE_ENDINGS: Record<FileReporterName, string> = {
  json: '.json',
  junit: '.junit.xml',
  markdown: '.md',
  html: '.html',
};

export interface FleetWriteOptions {
  /** Also write the fleet Markdown summary here (e.g. $GITHUB_STEP_SUMMARY). */
  markdownFile?: string;
  /** Relative paths are relative to this folder (default: the process's). */
  cwd?: string;
}

/** Some files could not be written; the others were. */
export class FleetReportWriteError extends Error {
  override readonly name = 'FleetReportWriteError';
  constructor(
    readonly written: string[],
    readonly failures: { path: string; message: string }[],
  ) {
    super(failures.map((f) => `could not write ${f.path}: ${f.message}`).join('; '));
  }
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Before a batch or merge does its work: the output folder and the Markdown file can be written (folders are
 * created). A file in the folder's place or an unwritable place is a UsageError (exit 2) of one line.
 */
export async function prepareFleetOutput(outDir: string, options: FleetWriteOptions = {}): Promise<void> {
  const cwd = options.cwd ?? process.cwd();
  await prepareReportTargets(
    [
      { name: 'json', path: join(outDir, FLEET_FILES.json) },
      ...(options.markdownFile ? [{ name: 'markdown' as const, path: options.markdownFile }] : []),
    ],
    cwd,
  );
}

/** Every file of a fleet report: path (relative to the output folder) → the renderer that makes it. */
function fleetFiles(report: FleetReport): [string, () => string][] {
  const files: [string, () => string][] = [
    [FLEET_FILES.json, () => renderFleetJson(report)],
    [FLEET_FILES.junit, () => renderFleetJUnit(report)],
    [FLEET_FILES.markdown, () => renderFleetMarkdown(report, { providerLinks: PROVIDERS_DIR })],
    [FLEET_FILES.html, () => renderFleetHtmlIndex(report)],
  ];
  for (const provider of report.providers) {
    const run = provider.report;
    if (!run) continue;
    const base = join(PROVIDERS_DIR, providerFileBase(provider.slug));
    for (const name of FILE_REPORTER_NAMES)
      files.push([`${base}${PROVIDER_FILE_ENDINGS[name]}`, () => REPORTERS[name].render(run)]);
  }
  return files;
}

/**
 * Writes fleet.json, fleet.junit.xml, fleet.md and index.html to `outDir`, each provider's own reports to
 * providers/<slug>.{json,junit.xml,md,html}, and the fleet Markdown to `markdownFile` when given. Returns the
 * paths written (as `outDir` was given). One file that cannot be rendered or written does not stop the others:
 * they are all attempted, then a FleetReportWriteError names the failures and the files that were written.
 */
export async function writeFleetReports(
  report: FleetReport,
  outDir: string,
  options: FleetWriteOptions = {},
): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd();
  const targets = fleetFiles(report).map(([file, render]): [string, () => string] => [join(outDir, file), render]);
  if (options.markdownFile) targets.push([options.markdownFile, () => renderFleetMarkdown(report)]);
  const written: string[] = [];
  const failures: { path: string; message: string }[] = [];
  for (const [path, render] of targets) {
    try {
      const absolute = resolve(cwd, path);
      await makeParentFolders(absolute);
      await writeFile(absolute, render());
      written.push(path);
    } catch (error) {
      failures.push({ path, message: firstLine(error) });
    }
  }
  if (failures.length > 0) throw new FleetReportWriteError(written, failures);
  return written;
}
