import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * Scores Stryker's JSON report (mutation-testing-report-schema) against the committed triage and names the survivors
 * nobody has triaged yet. Score = killed / (mutants - ignored - triaged as equivalent or
 * not observable through the contract). `npm run mutation` (run.ts) prints it.
 */
interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
export interface MutationReport {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}
export type TriageVerdict = 'equivalent' | 'not-observable' | 'hole';
export interface TriageEntry {
  key: string;
  verdict: TriageVerdict;
  why: string;
}

const KILLED = new Set(['Killed', 'Timeout']);
const SURVIVED = new Set(['Survived', 'NoCoverage']);

/** The code a mutant replaced, from its location in the source. */
function originalText(source: string, m: Mutant): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  const picked = lines.slice(start.line - 1, end.line);
  if (picked.length === 0) return '';
  picked[picked.length - 1] = (picked[picked.length - 1] ?? '').slice(0, end.column - 1);
  picked[0] = (picked[0] ?? '').slice(start.column - 1);
  return picked.join('\n');
}

const squash = (text: string, max = 120): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * A key that survives edits elsewhere in the file: file, mutator, the code replaced, its replacement and the line
 * it starts on (two mutants of the same code differ by their line).
 */
export function mutantKey(file: string, source: string, m: Mutant): string {
  const line = source.split('\n')[m.location.start.line - 1] ?? '';
  const change = `${squash(originalText(source, m), 60)} → ${squash(m.replacement ?? '', 60)}`;
  return `${file} · ${m.mutatorName} · ${change} · in: ${squash(line, 80)}`;
}

export function readTriage(path: string): Map<string, TriageEntry> {
  if (!existsSync(path)) return new Map();
  const parsed = parse(readFileSync(path, 'utf8')) as { survivors?: TriageEntry[] } | null;
  return new Map((parsed?.survivors ?? []).map((entry) => [entry.key, entry]));
}

export interface Score {
  total: number;
  killed: number;
  ignored: number;
  excused: number;
  holes: string[];
  untriaged: Array<{ key: string; line: number }>;
  percent: number;
}

export function score(report: MutationReport, triage: Map<string, TriageEntry>): Score {
  const result: Score = { total: 0, killed: 0, ignored: 0, excused: 0, holes: [], untriaged: [], percent: 0 };
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      result.total += 1;
      if (m.status === 'Ignored') result.ignored += 1;
      else if (KILLED.has(m.status)) result.killed += 1;
      else if (SURVIVED.has(m.status)) {
        const key = mutantKey(file, source, m);
        const entry = triage.get(key);
        if (entry?.verdict === 'equivalent' || entry?.verdict === 'not-observable') result.excused += 1;
        else if (entry?.verdict === 'hole') result.holes.push(key);
        else result.untriaged.push({ key, line: m.location.start.line });
      } else result.ignored += 1; // CompileError, RuntimeError: not a mutant a provider could ship
    }
  }
  const judged = result.total - result.ignored - result.excused;
  result.percent = judged === 0 ? 100 : (100 * result.killed) / judged;
  return result;
}
