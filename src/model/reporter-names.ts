/**
 * The reporters by name, in the order help and errors list them, and the file each file reporter writes when
 * named without one. The flags, the config file and its schema (kept equal by a test) read these names; the
 * renderers themselves are in report/reporters.ts, keyed by the same names.
 */
export const REPORTER_NAMES = ['console', 'json', 'junit', 'markdown', 'html', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The file reporters (`--json <file>`, config key `json`, '-' for stdout) and their default files. */
export const DEFAULT_REPORT_FILES = {
  json: 'provcert-report.json',
  junit: 'provcert-junit.xml',
  markdown: 'provcert-report.md',
  html: 'provcert-report.html',
} as const satisfies Partial<Record<ReporterName, string>>;

/** Reporters that write a file: json, junit, markdown, html. */
export type FileReporterName = keyof typeof DEFAULT_REPORT_FILES;

export const FILE_REPORTER_NAMES = Object.keys(DEFAULT_REPORT_FILES) as FileReporterName[];

export const isReporterName = (name: string): name is ReporterName =>
  (REPORTER_NAMES as readonly string[]).includes(name);
