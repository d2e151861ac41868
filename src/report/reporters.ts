import type { RunReport } from '../model/report.js';
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
  json: { defaultFile: 'provcert-report.json', render: renderJson },
  junit: { defaultFile: 'provcert-junit.xml', render: renderJUnit },
  markdown: { defaultFile: 'provcert-report.md', render: renderMarkdown },
  html: { defaultFile: 'provcert-report.html', render: renderHtml },
  github: { render: renderGithubAnnotations },
} as const satisfies Record<string, Reporter>;

type Table = typeof REPORTERS;
export type ReporterName = keyof Table;
/** Reporters that write a file: json, junit, markdown, html. */
export type FileReporterName = {
  [K in ReporterName]: Table[K] extends { defaultFile: string } ? K : never;
}[ReporterName];
/** Reporters that render a finished report: all but the live console. */
export type RenderingReporterName = {
  [K in ReporterName]: Table[K] extends { render: unknown } ? K : never;
}[ReporterName];

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export const FILE_REPORTER_NAMES = REPORTER_NAMES.filter(
  (name): name is FileReporterName => 'defaultFile' in REPORTERS[name],
);

export const RENDERING_REPORTER_NAMES = REPORTER_NAMES.filter(
  (name): name is RenderingReporterName => 'render' in REPORTERS[name],
);

export const isReporterName = (name: string): name is ReporterName => Object.hasOwn(REPORTERS, name);
