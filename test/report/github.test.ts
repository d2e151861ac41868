import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, isGithubActions, renderGithubAnnotations } from '../../src/report/github.js';
import { CANARY, failingReport, passingReport } from './sample-reports.js';

describe('renderGithubAnnotations', () => {
  it('writes one ::error per failed or errored check and one ::warning per warning, each on one line', () => {
    const lines = renderGithubAnnotations(failingReport()).trimEnd().split('\n');
    expect(lines.map((l) => /^::(\w+) title=([^:]*)::/.exec(l)?.slice(1))).toEqual([
      ['warning', 'provcert metadata [METADATA-RULE]'],
      ['error', 'provcert quote-math'],
      ['error', 'provcert webhook'],
      ['error', 'provcert wrong-credential'],
      ['error', 'provcert errors'],
    ]);
  });

  it('encodes provider text so it cannot end the command or start another', () => {
    const out = renderGithubAnnotations(failingReport());
    const quoteMath = out.split('\n').find((l) => l.startsWith('::error title=provcert quote-math::')) ?? '';
    expect(quoteMath).toContain('::error::owned %250A%0Asecond line, with: colon');
    expect(quoteMath).toContain('reproduce:%0ABODY=');
    expect(out).toContain('(100%25: not a failure)');
    expect(out).not.toMatch(/[\r\u0000-\u0008\u000B-\u001F]/);
    expect(out).not.toContain(CANARY);
  });

  it('writes nothing for a clean passing run', () => {
    expect(renderGithubAnnotations(passingReport())).toBe('');
  });

  it.each([
    ['100%\r\nnext', '100%25%0D%0Anext'],
    ['a:b,c', 'a:b,c'],
  ])('escapeData(%j)', (input, expected) => {
    expect(escapeData(input)).toBe(expected);
  });

  it.each([
    ['provcert a:b,c', 'provcert a%3Ab%2Cc'],
    ['50%\n', '50%25%0A'],
  ])('escapeProperty(%j)', (input, expected) => {
    expect(escapeProperty(input)).toBe(expected);
  });

  it.each([
    [{ GITHUB_ACTIONS: 'true' }, true],
    [{ GITHUB_ACTIONS: 'false' }, false],
    [{ CI: 'true' }, false],
    [{}, false],
  ])('isGithubActions(%j) is %s', (env, expected) => {
    expect(isGithubActions(env)).toBe(expected);
  });
});
