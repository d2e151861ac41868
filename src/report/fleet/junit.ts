import type { FleetProviderResult, FleetReport } from '../../model/fleet-report.js';
import type { WaiverOutcome } from '../../model/waivers.js';
import { junitSuiteProperties, junitTestcase } from '../junit.js';
import { xmlAttr, xmlEscape } from '../xml.js';
import { maskFleetReport, waiverTarget } from './rows.js';

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);
const junitTimestamp = (iso: string): string => iso.replace(/(\.\d+)?Z$/, '');

interface Suite {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
}

/** A provider's suite: its checks as the single-run JUnit writes them (a waived failure is its renderer's to show). */
function providerSuite(provider: FleetProviderResult): Suite {
  const { report } = provider;
  const name = `provcert ${provider.slug}`;
  if (!report) {
    // Not certified at all: one erroring testcase, so CI test views show the provider as broken, not absent.
    const why = provider.error ?? 'not run: the batch stopped, or its shard was not merged';
    const testcase = `    <testcase classname="provcert.${xmlAttr(provider.slug)}" name="${xmlAttr(`${provider.slug}: certification`)}" time="0.000">
      <error message="${xmlAttr(why)}" type="NotRun">${xmlEscape(`${provider.baseUrl}: ${why}`)}</error>
    </testcase>`;
    const open = `  <testsuite name="${xmlAttr(name)}" tests="1" failures="0" errors="1" skipped="0" time="0.000">`;
    return { xml: [open, testcase, '  </testsuite>'].join('\n'), tests: 1, failures: 0, errors: 1 };
  }
  // Counted from the testcases written (a waived failure is shown as its renderer decides), so totals agree with the file.
  const testcases = report.checks.map((c) => junitTestcase(c, report));
  const count = (tag: string): number => testcases.filter((t) => t.includes(`\n      <${tag} `)).length;
  const counts = { tests: testcases.length, failures: count('failure'), errors: count('error') };
  const open = `  <testsuite name="${xmlAttr(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${count('skipped')}" time="${seconds(report.durationMs)}" timestamp="${xmlAttr(junitTimestamp(report.startedAt))}">`;
  const xml = [open, junitSuiteProperties(report), ...testcases, '  </testsuite>'];
  return { xml: xml.join('\n'), ...counts };
}

function waiverTestcase(w: WaiverOutcome): string {
  const open = `    <testcase classname="provcert.waiver" name="${xmlAttr(`${waiverTarget(w)} until ${w.until}`)}" time="0.000">`;
  const body =
    w.state === 'applied'
      ? `      <system-out>${xmlEscape(`applied: ${w.message}\nReason: ${w.reason}`)}</system-out>`
      : `      <failure message="${xmlAttr(`${w.state}: ${w.message}`)}" type="Waiver${w.state[0]?.toUpperCase()}${w.state.slice(1)}">${xmlEscape(`${w.message}\nReason: ${w.reason}`)}</failure>`;
  return [open, body, '    </testcase>'].join('\n');
}

/** The expected failures: one testcase each; stale, unmatched and expired ones are failures (they fail the gate). */
function waiverSuite(waivers: WaiverOutcome[]): Suite {
  const failures = waivers.filter((w) => w.state !== 'applied').length;
  const open = `  <testsuite name="provcert expected failures" tests="${waivers.length}" failures="${failures}" errors="0" skipped="0" time="0.000">`;
  return {
    xml: [open, ...waivers.map(waiverTestcase), '  </testsuite>'].join('\n'),
    tests: waivers.length,
    failures,
    errors: 0,
  };
}

/**
 * fleet.junit.xml: one <testsuite> per provider (its checks as in the single-run JUnit, a provider that was not
 * run as one erroring testcase) and, when the fleet has expected failures, a suite of them.
 */
export function renderFleetJUnit(input: FleetReport): string {
  const report = maskFleetReport(input);
  const suites = report.providers.map(providerSuite);
  if (report.waivers.length > 0) suites.push(waiverSuite(report.waivers));
  const sum = (key: 'tests' | 'failures' | 'errors'): number => suites.reduce((n, s) => n + s[key], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`provcert fleet ${report.fleet.name}`)}" tests="${sum('tests')}" failures="${sum('failures')}" errors="${sum('errors')}" time="${seconds(report.durationMs)}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}
