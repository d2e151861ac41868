import type { Exchange } from '../model/exchange.js';
import type { Finding, FindingExcerpt } from '../model/findings.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { sanitizeTerminalText } from '../util/terminal.js';

/**
 * Provider text may hold control and bidi characters (terminal escapes, bells, U+202E); every output
 * format shows them escaped (`\x1b`), never interpreted. Newline and tab are kept. One implementation:
 * sanitizeTerminalText (the name stays for the renderers that import it).
 */
export const stripControl = (text: string): string => sanitizeTerminalText(text);

/** "12 ms" below a second, "6.2 s" above. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** expected/actual values as text: strings as they are, everything else as pretty JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** "14 passed, 2 failed, 5 skipped, 0 errors" */
export function summaryText(summary: RunReport['summary']): string {
  const waived = summary.waived !== undefined ? `, ${summary.waived} waived` : '';
  // Said only when some check could not test its rule: older reports and complete runs read as before.
  const untested = summary.untested ? `, ${summary.untested} not tested` : '';
  return `${summary.pass} passed, ${summary.fail} failed, ${summary.skip} skipped, ${summary.error} errors${untested}${waived}`;
}

/**
 * The exchange a failure's reproduce command sends again (same method and URL; the last such), so the `request:`
 * line beside it names that very request; without a reproduce command, the first exchange.
 */
export function reproducedExchange(result: Pick<CheckResult, 'reproduce' | 'evidence'>): Exchange | undefined {
  const { reproduce, evidence } = result;
  if (reproduce) {
    const quoted = (url: string): string => `'${url.replace(/'/g, `'\\''`)}'`;
    const sent = [...evidence]
      .reverse()
      .find((x) => reproduce.includes(`-X ${x.request.method} ${quoted(x.request.url)}`));
    if (sent) return sent;
  }
  return evidence[0];
}

/** "POST http://host/quote → 422" or "GET http://host/health → timed out after 10000 ms". */
export function requestLine(exchange: Exchange): string {
  const { method, url } = exchange.request;
  const outcome = exchange.response ? String(exchange.response.status) : (exchange.failure ?? 'no response');
  return `${method} ${url} → ${outcome}`;
}

/** An exchange as plain text (headers already masked by maskReport). */
export function exchangeText(exchange: Exchange): string {
  const lines = [`${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) lines.push(`${name}: ${value}`);
  if (exchange.request.body !== undefined) lines.push('', exchange.request.body);
  const response = exchange.response;
  if (response) {
    lines.push('', `← ${response.status} (${formatDuration(exchange.durationMs)})`);
    for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
    if (response.body !== undefined) lines.push('', response.body + (response.truncated ? '\n… (truncated)' : ''));
  }
  if (exchange.failure) lines.push('', `✗ ${exchange.failure}`);
  return lines.join('\n');
}

/** Checks needing attention (fail and error), in report order. */
export const problemChecks = (report: RunReport): CheckResult[] =>
  report.checks.filter((c) => c.status === 'fail' || c.status === 'error');

/** Who was certified, in one phrase: "Demo Pizza (demo-pizza) at https://…". */
export function providerLabel(provider: RunReport['provider']): string {
  const who = provider.name && provider.slug ? `${provider.name} (${provider.slug})` : (provider.name ?? provider.slug);
  return who ? `${who} at ${provider.baseUrl}` : provider.baseUrl;
}

/** The excerpts of a check's findings (the answer around each failing value), each once, in order. */
export function findingExcerpts(check: Pick<CheckResult, 'findings'>): FindingExcerpt[] {
  const seen = new Set<string>();
  return check.findings
    .filter((f): f is Finding & { excerpt: FindingExcerpt } => f.excerpt !== undefined)
    .map((f) => f.excerpt)
    .filter((x) => {
      const key = `${x.at}\n${x.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** "at /offerings/4 (the value at /offerings/4/basePrice):", the heading of one excerpt. */
export const excerptHeading = (excerpt: FindingExcerpt): string =>
  excerpt.pointer === excerpt.at || excerpt.pointer === '(root)'
    ? `at ${excerpt.at}:`
    : `at ${excerpt.at} (the value at ${excerpt.pointer}):`;
