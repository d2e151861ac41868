import type { FileReporterName } from '../model/reporter-names.js';

/** A file option per file reporter (`--json <file>`, …; src/report/reporters.ts), and --reporter's list of names. */
export type ReportFlags = { [name in FileReporterName]?: string } & { reporter?: string };
