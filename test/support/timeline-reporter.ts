import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * With PROVCERT_TEST_TIMELINE=<file>: when each test file started and ended, seconds from the run's start, and its
 * tier. What the suite's time is made of (the tail, an idle group) shows there, not in the per-file durations.
 */
export default class TimelineReporter implements Reporter {
  private readonly started = performance.now();
  private readonly begun = new Map<string, number>();
  private readonly rows: string[] = [];

  onTestModuleStart(module: TestModule): void {
    this.begun.set(module.moduleId, this.seconds());
  }

  onTestModuleEnd(module: TestModule): void {
    const start = this.begun.get(module.moduleId) ?? 0;
    const file = relative(process.cwd(), module.moduleId);
    this.rows.push(`${start.toFixed(1)}\t${this.seconds().toFixed(1)}\t${module.project.name}\t${file}`);
  }

  onTestRunEnd(): void {
    const path = process.env['PROVCERT_TEST_TIMELINE'];
    if (path) writeFileSync(path, `start\tend\ttier\tfile\n${this.rows.join('\n')}\n`);
  }

  private seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}
