import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { credentialDiagnosis } from '../../src/doctor/auth.js';
import { runMain } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

const KEY = 'run-options-provider-key-51c0';
let dir: string;

beforeAll(async () => {
  dir = await scratchDir('run-options');
});

describe('run refuses whitespace around the credential exactly as doctor flags it', () => {
  const run = ['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY', '--local'];
  it.each([
    ['trailing whitespace', `${KEY} `, 'trailing whitespace'],
    ['a trailing newline', `${KEY}\n`, 'a trailing newline'],
    ['leading whitespace', ` ${KEY}`, 'leading whitespace'],
    ['a line break inside', `${KEY.slice(0, 5)}\n${KEY.slice(5)}`, 'a line break inside'],
  ])('%s', async (_name, value, problem) => {
    const doctor = credentialDiagnosis({ value, source: 'PROVIDER_API_KEY' });
    expect(doctor.status).toBe('fail');
    const { code, err } = await runMain(dir, run, { env: { PROVIDER_API_KEY: value } });
    expect(code).toBe(2);
    expect(err).toBe(`provcert: ${doctor.detail}\n  ${doctor.fix ?? ''}\n`);
    expect(err).toContain(problem);
    expect(err).not.toContain(KEY);
  });

  it('a credential file: one trailing newline is an editor artefact, trailing spaces are not', async () => {
    await writeFile(join(dir, 'spaces.txt'), `${KEY}  \n`);
    const { code, err } = await runMain(dir, [...run, '--credential-file', 'spaces.txt']);
    expect(code).toBe(2);
    expect(err).toContain(
      'provcert: the credential from the file spaces.txt has trailing whitespace (value not shown)',
    );
  });
});
