/** Where a rendered report came from when it was read back from a file (`provcert report`), not run now. */
export interface StoredOrigin {
  /** The file as named on the command line. */
  path: string;
  /** sha256 (hex) of the file's bytes. */
  digest: string;
}

/** Said in every format a stored report is rendered in: until results are signed, the file proves nothing alone. */
export const storedReportNotice = (origin: StoredOrigin): string =>
  `stored report read from the file ${origin.path} (sha256 ${origin.digest}), not a certification run now: ` +
  'a report file proves nothing by itself; run provcert against the provider to certify it';
