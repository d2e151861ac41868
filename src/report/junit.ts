import type { CheckResult, RunReport } from '../model/report.js';
import type { WaiverOutcome } from '../model/waivers.js';
import { excerptHeading, exchangeText, findingExcerpts, formatValue } from './format.js';
import { maskReport } from './mask.js';
import { type StoredOrigin, storedReportNotice } from './origin.js';
import { citationText, violatedRequirements } from './requirements.js';
import { verdictWords } from './verdict-text.js';
import {
  failingWaivers,
  isUnwaivedProblem,
  isWaived,
  outcomeText,
  waivedChecks,
  waivedText,
  waiverLabel,
} from './waivers.js';
import { xmlAttr, xmlEscape } from './xml.js';

/** JUnit time: seconds with three decimals (the SUREFIRE_TIME pattern CI schemas use). */
const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

/** JUnit timestamps carry no zone designator in the common schemas; ours are UTC. */
const junitTimestamp = (iso: string): string => iso.replace(/(\.\d+)?Z$/, '');

/** The failure body: everything a CI reader needs to act without opening another file. */
function failureText(check: CheckResult, report: RunReport): string {
  const parts = [check.message];
  if (check.details?.length) parts.push(check.details.map((d) => `- ${d}`).join('\n'));
  for (const x of findingExcerpts(check)) parts.push(`${excerptHeading(x)}\n${x.text}`);
  const violated = violatedRequirements(report, check);
  if (violated.length > 0) parts.push(`Violates: ${violated.map(citationText).join('; ')}`);
  parts.push(`Rule: ${check.rule}`);
  if (check.expected !== undefined) parts.push(`Expected:\n${formatValue(check.expected)}`);
  if (check.actual !== undefined) parts.push(`Found:\n${formatValue(check.actual)}`);
  if (check.quoteMath?.length) {
    const rows = check.quoteMath.map(
      (r) => `${r.ok ? 'ok ' : 'BAD'} ${r.label}: ${r.formula} = ${r.expected}, provider ${r.actual ?? 'missing'}`,
    );
    parts.push(`Quote math:\n${rows.join('\n')}`);
  }
  if (check.reproduce) parts.push(`Reproduce:\n${check.reproduce}`);
  check.evidence.forEach((exchange, i) => parts.push(`Evidence ${i + 1}:\n${exchangeText(exchange)}`));
  return parts.join('\n\n');
}

/** Testcase properties: every requirement the check verifies, and those its failures violate. */
function requirementProperties(check: CheckResult, report: RunReport): string {
  const props = [
    ...check.requirements.map((id) => ['requirement', id]),
    ...violatedRequirements(report, check).map((r) => ['violates', citationText(r)]),
  ];
  return `      <properties>\n${props.map(([n, v]) => `        <property name="${xmlAttr(n ?? '')}" value="${xmlAttr(v ?? '')}"/>`).join('\n')}\n      </properties>`;
}

/**
 * One check as a <testcase>: skip → <skipped>, fail → <failure>, error → <error>. A waived failure is a
 * <skipped message="waived until DATE: reason"/> whose system-out keeps the whole failure text.
 */
function testcase(check: CheckResult, report: RunReport): string {
  const open = `    <testcase classname="provcert.${xmlAttr(check.id)}" name="${xmlAttr(`${check.id}: ${check.title}`)}" time="${seconds(check.durationMs)}"`;
  const children: string[] = [requirementProperties(check, report)];
  const warnings = check.findings.filter((f) => f.severity === 'warn');
  const warningText = warnings.map((w) => `warning [${w.requirement}]: ${w.message}`);
  if (check.waiver && isWaived(check)) {
    const out = [
      `${check.status === 'fail' ? 'Failed' : 'Errored'} (waived):`,
      failureText(check, report),
      ...warningText,
    ];
    children.push(
      `      <skipped message="${xmlAttr(waivedText(check.waiver))}"/>`,
      `      <system-out>${xmlEscape(out.join('\n\n'))}</system-out>`,
    );
    return `${open}>\n${children.join('\n')}\n    </testcase>`;
  }
  if (check.status === 'skip') children.push(`      <skipped message="${xmlAttr(check.message)}"/>`);
  if (check.status === 'fail') {
    children.push(
      `      <failure message="${xmlAttr(check.message)}" type="CertificationFailure">${xmlEscape(failureText(check, report))}</failure>`,
    );
  }
  if (check.status === 'error') {
    children.push(
      `      <error message="${xmlAttr(check.message)}" type="CheckError">${xmlEscape(failureText(check, report))}</error>`,
    );
  }
  // Not tested is never green: an error (the test could not be carried out), not a failure of the provider.
  if (check.status === 'untested') {
    children.push(
      `      <error message="${xmlAttr(`not tested: ${check.message}`)}" type="NotTested">${xmlEscape(failureText(check, report))}</error>`,
    );
  }
  if (warnings.length > 0) children.push(`      <system-out>${xmlEscape(warningText.join('\n'))}</system-out>`);
  return `${open}>\n${children.join('\n')}\n    </testcase>`;
}

/** An expectedFailures entry that fails the gate (stale, unmatched, expired) as a failing testcase. */
function waiverTestcase(waiver: WaiverOutcome): string {
  const name = `waiver ${waiverLabel(waiver)} until ${waiver.until}`;
  const type = `Waiver${waiver.state.charAt(0).toUpperCase()}${waiver.state.slice(1)}`;
  const body = `${outcomeText(waiver)}\nReason given: ${waiver.reason}`;
  return `    <testcase classname="provcert.waiver" name="${xmlAttr(name)}" time="0.000">
      <failure message="${xmlAttr(outcomeText(waiver))}" type="${type}">${xmlEscape(body)}</failure>
    </testcase>`;
}

function properties(report: RunReport, origin?: StoredOrigin): string {
  const { provider } = report;
  const entries: [string, string | undefined][] = [
    ['provider.baseUrl', provider.baseUrl],
    ['provider.slug', provider.slug],
    ['provider.name', provider.name],
    ['provider.profile', provider.profile],
    ['provider.authMethod', provider.authMethod],
    ['provider.fulfillment', provider.fulfillment],
    ['provider.capabilities', provider.capabilities.join(',')],
    ['verdict', report.verdict],
    ['verdict.meaning', verdictWords(report).meaning],
    ['tool.version', report.tool.version],
    ['contract.version', report.contract.version],
    ...(origin
      ? ([
          ['storedReport.file', origin.path],
          ['storedReport.sha256', origin.digest],
          ['storedReport.note', storedReportNotice(origin)],
        ] as [string, string][])
      : []),
  ];
  const lines = entries
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
  return `    <properties>\n${lines.join('\n')}\n    </properties>`;
}

/**
 * What the verdict adds to the suite, so no CI view of it reads greener than the verdict: each check a PARTIAL run
 * left out as a skipped testcase, and an INTERRUPTED run's missing verdict as an erroring one.
 */
function verdictTestcases(report: RunReport): { xml: string[]; skipped: number; errors: number } {
  if (report.verdict === 'PARTIAL') {
    const xml = (report.leftOut ?? []).map(
      (left) =>
        `    <testcase classname="provcert.left-out" name="${xmlAttr(left.id)}" time="0.000">\n      <skipped message="${xmlAttr(`left out: ${left.reason}`)}"/>\n    </testcase>`,
    );
    return { xml, skipped: xml.length, errors: 0 };
  }
  if (report.verdict === 'INTERRUPTED') {
    const meaning = verdictWords(report).meaning;
    const xml = [
      `    <testcase classname="provcert.verdict" name="verdict" time="0.000">\n      <error message="${xmlAttr(`INTERRUPTED: no verdict`)}" type="Interrupted">${xmlEscape(meaning)}</error>\n    </testcase>`,
    ];
    return { xml, skipped: 0, errors: 1 };
  }
  return { xml: [], skipped: 0, errors: 0 };
}

/**
 * JUnit XML as CI systems read it (Jenkins/xunit junit-10.xsd, GitLab, GitHub test reporters): one
 * suite, one testcase per check; skip → <skipped>, fail → <failure>, error and untested → <error>, a waived failure →
 * <skipped>; then one failing testcase per expectedFailures entry that fails the gate.
 */
export function renderJUnit(input: RunReport, origin?: StoredOrigin): string {
  const report = maskReport(input);
  const gate = failingWaivers(report);
  // Counted as the testcases are written (a waived failure is skipped), so the totals agree with the file.
  const count = (status: CheckResult['status']): number =>
    report.checks.filter(
      (c) => c.status === status && (status === 'skip' || status === 'untested' || isUnwaivedProblem(c)),
    ).length;
  const extra = verdictTestcases(report);
  const skipped = count('skip') + waivedChecks(report).length + extra.skipped;
  const time = seconds(report.durationMs);
  const tests = report.checks.length + gate.length + extra.xml.length;
  const errors = count('error') + count('untested') + extra.errors;
  const counts = `tests="${tests}" failures="${count('fail') + gate.length}" errors="${errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="provcert" ${counts} time="${time}">`,
    `  <testsuite name="provcert certification" ${counts} skipped="${skipped}" time="${time}" timestamp="${xmlAttr(junitTimestamp(report.startedAt))}">`,
    properties(report, origin),
    ...report.checks.map((c) => testcase(c, report)),
    ...gate.map(waiverTestcase),
    ...extra.xml,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * For the fleet JUnit (report/fleet/junit.ts): one check's <testcase> (a waived failure as <skipped>) and a run's
 * suite <properties>, as above.
 */
export { properties as junitSuiteProperties, testcase as junitTestcase };
