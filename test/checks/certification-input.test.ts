import { describe, expect, it } from 'vitest';
import type { CertificationInputView } from '../../src/checks/framework/views.js';
import {
  certificationCustomerProblems,
  certificationLocationProblem,
} from '../../src/checks/support/certification-input.js';

describe('certificationLocationProblem', () => {
  const listed = ['loc-a', 'loc-b'];
  it.each<[string, unknown, readonly string[] | undefined, RegExp | undefined]>([
    ['omitted: nothing to check', undefined, listed, undefined],
    ['a listed location', 'loc-b', listed, undefined],
    [
      'an unlisted location',
      'loc-x',
      listed,
      /locationId "loc-x" is not a location GET \/locations lists \(active locations: loc-a, loc-b\)/,
    ],
    ['none listed', 'loc-x', [], /\(active locations: none\)/],
    [
      'empty',
      '',
      listed,
      /locationId is empty \(found ""\): name a location GET \/locations lists, or leave locationId out/,
    ],
    ['blank, even before the list is read', ' ', undefined, /locationId is empty \(found " "\)/],
    ['not read yet: only emptiness is judged', 'loc-x', undefined, undefined],
  ])('%s', (_name, locationId, ids, expected) => {
    const problem = certificationLocationProblem(locationId, ids);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});

describe('certificationCustomerProblems', () => {
  const input = (customer: Record<string, unknown> | undefined): CertificationInputView =>
    (customer === undefined ? {} : { customer }) as CertificationInputView;
  it.each<[string, Record<string, unknown> | undefined, Record<string, unknown> | undefined, string[]]>([
    ['every required field given', { name: 'T', phone: '+1555' }, { phone: 'REQUIRED' }, []],
    ['no customer: provcert sends its own', undefined, { phone: 'REQUIRED' }, []],
    ['no customerRequirements', { name: 'T' }, undefined, []],
    ['a field not marked REQUIRED', { name: 'T' }, { phone: 'OPTIONAL' }, []],
    [
      'a required field missing',
      { name: 'T' },
      { phone: 'REQUIRED' },
      [
        'manifest.certificationInput.customer.phone is missing, but manifest.customerRequirements marks phone REQUIRED: certificationInput must be valid test data',
      ],
    ],
    [
      'required fields empty or blank',
      { name: 'T', phone: '', email: '  ' },
      { phone: 'REQUIRED', email: 'REQUIRED' },
      [
        'manifest.certificationInput.customer.phone is empty (found ""), but manifest.customerRequirements marks phone REQUIRED: certificationInput must be valid test data',
        'manifest.certificationInput.customer.email is empty (found "  "), but manifest.customerRequirements marks email REQUIRED: certificationInput must be valid test data',
      ],
    ],
  ])('%s', (_name, customer, requirements, expected) => {
    expect(certificationCustomerProblems(input(customer), requirements)).toEqual(expected);
  });
});
