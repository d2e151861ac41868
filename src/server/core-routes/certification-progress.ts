import type { components } from '../../contract/generated/contract-types.js';
import type { RunEvents } from '../../model/run-events.js';

export type CertificationProgressView = components['schemas']['CoreCertificationProgress'];

/** The certifications running on this core, each as checks done out of the checks planned. */
export class CertificationProgress {
  private readonly runs = new Map<string, CertificationProgressView>();

  /** Starts counting a provider's run; the hooks go to the engine (the run's own events). */
  begin(slug: string, at: Date): RunEvents {
    const progress: CertificationProgressView = { startedAt: at.toISOString(), checksDone: 0, checksTotal: 0 };
    this.runs.set(slug, progress);
    return {
      onRunStart: (info) => {
        progress.checksTotal = info.checks;
      },
      onCheckEnd: () => {
        progress.checksDone += 1;
      },
    };
  }

  end(slug: string): void {
    this.runs.delete(slug);
  }

  of(slug: string): CertificationProgressView | undefined {
    const p = this.runs.get(slug);
    return p ? { ...p } : undefined;
  }
}
