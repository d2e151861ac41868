import type { RunReport } from '../model/report.js';
import {
  DEFAULT_REPORT_FILES,
  FILE_REPORTER_NAMES,
  type FileReporterName,
  isReporterName,
  REPORTER_NAMES,
  type ReporterName,
} from '../model/reporter-names.js';
import { renderGithubAnnotations } from './github.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJUnit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { StoredOrigin } from './origin.js';

/** What the rest of provcert needs to know of one reporter. */
interface Reporter {
  /**
   * Set for a file reporter: it writes the file its option names (`--json <file>`, config key `json`, '-' for
   * stdout; the option and key are the reporter's name), or this file when named in --reporter without one.
   */
  readonly defaultFile?: string;
  /** Renders a finished report as text; the renderer only reads the report. console is live (console.ts). */
  readonly render?: (report: RunReport, origin?: StoredOrigin) => string;
}

/**
 * Every reporter, in the order help and errors list them: the one table that flags, config, the config schema
 * (kept equal by a test) and the writers read. console (the default) and github write to the screen.
 */
export const REPORTERS = {
  console: {},
  json: { defaultFile: DEFAULT_REPORT_FILES.json, render: renderJson },
  junit: { defaultFile: DEFAULT_REPORT_FILES.junit, render: renderJUnit },
  markdown: { defaultFile: DEFAULT_REPORT_FILES.markdown, render: renderMarkdown },
  html: { defaultFile: DEFAULT_REPORT_FILES.html, render: renderHtml },
  github: { render: renderGithubAnnotations },
} as const satisfies Record<ReporterName, Reporter>;

type Table = typeof REPORTERS;
/** Reporters that render a finished report: all but the live console. */
export type RenderingReporterName = {
  [K in ReporterName]: Table[K] extends { render: unknown } ? K : never;
}[ReporterName];

export const RENDERING_REPORTER_NAMES = REPORTER_NAMES.filter(
  (name): name is RenderingReporterName => 'render' in REPORTERS[name],
);

export { FILE_REPORTER_NAMES, type FileReporterName, isReporterName, REPORTER_NAMES, type ReporterName };
