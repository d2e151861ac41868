import type { RunReport } from './report.js';
import type { FleetProviderVerdict, RunVerdict } from './verdict.js';
import type { ExpectedFailure, WaiverOutcome } from './waivers.js';

/** Which fleet a report belongs to: merge-reports refuses to combine reports of different fleets. */
export interface FleetIdentity {
  /** `name` from the fleet file. */
  name: string;
  /** sha256 (hex) of the fleet file's canonical content (providers and waivers, without secrets' values). */
  digest: string;
  /** Every provider slug in the fleet file, sorted (all shards together). */
  slugs: string[];
  /** Each provider's base URL by slug (absent in reports written before it was recorded). */
  baseUrls?: Record<string, string>;
}

export interface FleetProviderResult {
  slug: string;
  baseUrl: string;
  /** The provider's run verdict (PASS, FAIL, INTERRUPTED, INCOMPLETE, PARTIAL); NOT_RUN when the batch was stopped before it started. */
  verdict: FleetProviderVerdict;
  /** The provider's full run report (absent when NOT_RUN). */
  report?: RunReport;
  /** Why a provider could not be certified at all (e.g. its credential variable is not set). */
  error?: string;
}

/** One shard of a fleet: `index` is 1-based, as "i/n" writes it (Playwright's convention). */
export interface Shard {
  index: number;
  total: number;
}

/** The fleet summary `provcert batch` and `provcert merge-reports` write (fleet.json). */
export interface FleetReport {
  reportVersion: 1;
  kind: 'fleet';
  tool: { name: 'provcert'; version: string };
  fleet: FleetIdentity;
  /** Set on a shard's report (`--shard i/n`); absent on a whole fleet and on merged reports. */
  shard?: Shard;
  /** Shards merged into this report (merge-reports), in index order. */
  mergedShards?: Shard[];
  /** deriveFleetVerdict over the providers' verdicts and the waivers. */
  verdict: RunVerdict;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: {
    providers: number;
    passed: number;
    failed: number;
    notRun: number;
    waivedChecks: number;
    /** Providers that passed a narrowed selection, and providers stopped mid-run (absent in older reports). */
    partial?: number;
    interrupted?: number;
    /** Providers with a rule not tested within the run's limits, none failed (absent in older reports). */
    incomplete?: number;
  };
  providers: FleetProviderResult[];
  /** What became of each expectedFailures entry in this scope. */
  waivers: WaiverOutcome[];
  /**
   * The fleet file's whole expectedFailures list (every provider, all shards), so merge-reports can judge the
   * waivers again over the merged fleet. Optional: when absent, merge-reports takes the entries from `waivers`.
   */
  expectedFailures?: ExpectedFailure[];
  /** Set when Ctrl-C or SIGTERM stopped the batch: what was done is reported, the rest is NOT_RUN. */
  interruptedBy?: string;
}
