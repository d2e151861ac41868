import { describe, expect, it } from 'vitest';
import { spellAsFlag } from '../../src/cli/setting-flags.js';
import { addressDiagnoses } from '../../src/doctor/address.js';
import { doctorExitCode, runDoctor } from '../../src/doctor/doctor.js';
import { candidateBases } from '../../src/doctor/http-probes.js';
import { DIAGNOSIS_IDS, type DoctorInput } from '../../src/doctor/types.js';
import { byId, json, providerApi, serveEachTest, startServer } from './support.js';

const SECRET = 'pk_test_doctor_5e1f';
const serve = serveEachTest();

/**
 * Every probe's timeout, where a test is not about timeouts: the product's default. Local servers answer in
 * milliseconds, but a loaded machine can stall this process for seconds, and a timer that fires first turns a
 * connection made meanwhile into a timeout.
 */
const TIMEOUT_MS = 10_000;

const doctor = (input: Partial<DoctorInput> & { baseUrl: string }) =>
  runDoctor({
    timeoutMs: TIMEOUT_MS,
    credential: { value: SECRET, source: 'PROVIDER_API_KEY' },
    authMethod: 'API_KEY',
    spell: spellAsFlag,
    ...input,
  });

describe('doctor against a conforming local provider', () => {
  it('reports every finding in order, nothing failed, http on loopback only warned', async () => {
    const server = await serve(providerApi({ method: 'API_KEY', secret: SECRET }));
    const findings = await doctor({ baseUrl: server.url });
    expect(findings.map((f) => f.id)).toEqual([...DIAGNOSIS_IDS]);
    expect(byId(findings, 'https')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('hosted certification needs a public HTTPS address'),
    });
    expect(byId(findings, 'tls')).toMatchObject({ status: 'skip', detail: 'plain http: no TLS' });
    for (const id of ['base-path', 'dns', 'tcp', 'frontend', 'routes', 'auth', 'credential', 'latency'] as const)
      expect(byId(findings, id).status, id).toBe('ok');
    expect(byId(findings, 'auth').detail).toBe('GET /provider-info answered 200 with x-provider-api-key (API_KEY)');
    expect(doctorExitCode(findings)).toBe(0);
  });
});

describe('doctor diagnoses the troubleshooting list', () => {
  it('an HTML frontend: "this is a website, not the provider API"', async () => {
    const server = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><body>Shop</body></html>'),
    );
    const findings = await doctor({ baseUrl: server.url });
    expect(byId(findings, 'frontend')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('this is a website, not the provider API'),
      fix: expect.stringContaining('not the website'),
    });
    expect(doctorExitCode(findings)).toBe(1);
  });

  it('404 on every route: wrong base path, and the address that answers is suggested (<base>/api)', async () => {
    const server = await serve(providerApi({ prefix: '/api', method: 'API_KEY', secret: SECRET }));
    const routes = byId(await doctor({ baseUrl: server.url }), 'routes');
    expect(routes).toMatchObject({ status: 'fail', fix: `use --base-url ${server.url}/api` });
    expect(routes.detail).toContain('all answered 404: the base path is wrong');
  });

  it('404 on every route: the parent path is suggested when it answers', async () => {
    const server = await serve(providerApi({ prefix: '/api', method: 'API_KEY', secret: SECRET }));
    expect(byId(await doctor({ baseUrl: `${server.url}/api/v9` }), 'routes')).toMatchObject({
      status: 'fail',
      fix: `use --base-url ${server.url}/api`,
    });
  });

  it('404 on every route: <origin>/api is suggested for a wrong version path', async () => {
    const server = await serve(providerApi({ prefix: '/api', method: 'API_KEY', secret: SECRET }));
    expect(byId(await doctor({ baseUrl: `${server.url}/v1` }), 'routes')).toMatchObject({
      status: 'fail',
      fix: `use --base-url ${server.url}/api`,
    });
  });

  it('candidate bases are distinct and never the base itself', () => {
    expect(candidateBases('https://h.example/api')).toEqual(['https://h.example/api/api', 'https://h.example']);
    expect(candidateBases('https://h.example/')).toEqual(['https://h.example/api']);
    expect(candidateBases('https://h.example/x/v1')).toEqual([
      'https://h.example/x/v1/api',
      'https://h.example/x',
      'https://h.example/api',
    ]);
  });

  it('404 everywhere with nothing nearby: wrong base path, no suggestion', async () => {
    const server = await serve((_req, res) => json(res, 404, { code: 'NOT_FOUND', message: 'nothing' }));
    const routes = byId(await doctor({ baseUrl: server.url }), 'routes');
    expect(routes.status).toBe('fail');
    expect(routes.detail).toContain('nothing answers at <base>/api, the parent path or <origin>/api either');
  });

  it('a base path ending in /health fails with the parent as the fix', async () => {
    const server = await serve(providerApi({ method: 'API_KEY', secret: SECRET }));
    const findings = await doctor({ baseUrl: `${server.url}/health` });
    expect(byId(findings, 'base-path')).toMatchObject({ status: 'fail', fix: `use --base-url ${server.url}` });
    expect(byId(findings, 'routes')).toMatchObject({ status: 'fail', fix: `use --base-url ${server.url}` });
    // The probes hit no provider route: no verdict on the credential from them.
    expect(byId(findings, 'auth')).toMatchObject({
      status: 'skip',
      detail: 'skipped: the base path is wrong (see base-path)',
    });
  });

  it('404 everywhere: the auth finding is skipped naming routes, not judged', async () => {
    const server = await serve((_req, res) => json(res, 404, { code: 'NOT_FOUND', message: 'nothing' }));
    expect(byId(await doctor({ baseUrl: server.url }), 'auth')).toMatchObject({
      status: 'skip',
      detail: 'skipped: the provider routes were not found (see routes)',
    });
  });

  it('wrong auth header: provider expects Bearer, configured API_KEY → names BEARER_TOKEN', async () => {
    const server = await serve(providerApi({ method: 'BEARER_TOKEN', secret: SECRET }));
    const findings = await doctor({ baseUrl: server.url, authMethod: 'API_KEY' });
    const auth = byId(findings, 'auth');
    expect(auth.status).toBe('fail');
    expect(auth.detail).toBe(
      'GET /provider-info answered 401 with x-provider-api-key (API_KEY) but 200 with Authorization: Bearer; you configured API_KEY',
    );
    expect(auth.fix).toContain('use --auth BEARER_TOKEN');
    expect(doctorExitCode(findings)).toBe(1);
  });

  it('no --auth: tries every scheme and names the accepted one', async () => {
    const server = await serve(providerApi({ method: 'HMAC_SIGNATURE', secret: SECRET }));
    const auth = byId(await doctor({ baseUrl: server.url, authMethod: undefined }), 'auth');
    expect(auth).toMatchObject({
      status: 'ok',
      detail: 'GET /provider-info answered 200 with x-service-signature: use --auth HMAC_SIGNATURE',
    });
  });

  it('a credential no scheme accepts: says the credential itself is wrong', async () => {
    const server = await serve(providerApi({ method: 'API_KEY', secret: 'another-key-0000' }));
    const auth = byId(await doctor({ baseUrl: server.url }), 'auth');
    expect(auth.status).toBe('fail');
    expect(auth.detail).toContain('with every scheme');
    expect(auth.fix).toContain('not the webhook secret');
  });

  it('no credential: auth skipped with how to provide one', async () => {
    const server = await serve(providerApi({ method: 'API_KEY', secret: SECRET }));
    const findings = await runDoctor({ baseUrl: server.url, timeoutMs: TIMEOUT_MS, spell: spellAsFlag });
    expect(byId(findings, 'auth')).toMatchObject({ status: 'skip', fix: expect.stringContaining('PROVIDER_API_KEY') });
    expect(byId(findings, 'credential').status).toBe('skip');
  });

  it('stray whitespace in the credential: fail with fix, value never shown', async () => {
    const server = await serve(providerApi({ method: 'BEARER_TOKEN', secret: SECRET }));
    const findings = await doctor({
      baseUrl: server.url,
      authMethod: 'BEARER_TOKEN',
      credential: { value: ` ${SECRET}\n`, source: 'PROVIDER_API_KEY' },
    });
    expect(byId(findings, 'credential')).toMatchObject({
      status: 'fail',
      detail: 'the credential from PROVIDER_API_KEY has leading whitespace and a trailing newline (value not shown)',
    });
    expect(byId(findings, 'auth')).toMatchObject({
      status: 'fail',
      detail:
        'the credential from PROVIDER_API_KEY contains a line break, which no HTTP header can carry; GET /provider-info answered 200 with Authorization: Bearer and the whitespace removed from the credential; you configured BEARER_TOKEN',
      fix: 'remove the whitespace from PROVIDER_API_KEY',
    });
    // Probed without the unsendable credential, the routes still answer (401), so they are not blamed.
    expect(byId(findings, 'routes').status).toBe('ok');
    expect(JSON.stringify(findings)).not.toContain(SECRET);
  });

  it('a trailing space breaks an HMAC signature: the trimmed secret is named as the fix', async () => {
    const server = await serve(providerApi({ method: 'HMAC_SIGNATURE', secret: SECRET }));
    const findings = await doctor({
      baseUrl: server.url,
      authMethod: 'HMAC_SIGNATURE',
      credential: { value: `${SECRET} `, source: 'the file key.txt' },
    });
    expect(byId(findings, 'credential')).toMatchObject({
      status: 'fail',
      detail: 'the credential from the file key.txt has trailing whitespace (value not shown)',
    });
    expect(byId(findings, 'auth')).toMatchObject({
      status: 'fail',
      detail:
        'GET /provider-info answered 401 with x-service-signature (HMAC_SIGNATURE) but 200 with x-service-signature and the whitespace removed from the credential; you configured HMAC_SIGNATURE',
      fix: 'remove the whitespace from the file key.txt',
    });
  });

  it('a slow answer is a warning, not a failure', async () => {
    // /catalog is slow by 2 s; the others answer at once, under the 1 s threshold however loaded the machine is.
    const server = await serve(providerApi({ method: 'API_KEY', secret: SECRET, delayMs: { '/catalog': 2_000 } }));
    const findings = await doctor({ baseUrl: server.url, slowMs: 1_000 });
    expect(byId(findings, 'latency')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^slow answers \(over 1000 ms\): GET \/catalog \d+ ms$/),
    });
    expect(doctorExitCode(findings)).toBe(0);
  });

  it('a timeout is said in those words', async () => {
    // /health answers after the timeout: this process's timers fire in order, so the 2 s timeout always comes first.
    // 2 s (not less) leaves the TCP probe and the other routes time on a loaded machine.
    const server = await serve(providerApi({ method: 'API_KEY', secret: SECRET, delayMs: { '/health': 5_000 } }));
    const routes = byId(await doctor({ baseUrl: server.url, timeoutMs: 2_000 }), 'routes');
    expect(routes).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('GET /health: timed out after 2000 ms'),
    });
  });

  it('a refused port: TCP fails, the HTTP findings are skipped naming it', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const findings = await doctor({ baseUrl: url });
    expect(byId(findings, 'tcp')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('refused: nothing listens there'),
    });
    for (const id of ['frontend', 'routes', 'auth', 'latency'] as const)
      expect(byId(findings, id)).toMatchObject({ status: 'skip', detail: 'skipped: no TCP connection (see tcp)' });
    expect(doctorExitCode(findings)).toBe(1);
  });

  it('a host that does not resolve: DNS fails, the rest is skipped', async () => {
    const findings = await doctor({ baseUrl: 'https://provcert-doctor-test.invalid/api', timeoutMs: 2_000 });
    expect(byId(findings, 'dns').status).toBe('fail');
    expect(byId(findings, 'https').status).toBe('ok');
    for (const id of ['tcp', 'tls', 'routes'] as const) expect(byId(findings, id).status).toBe('skip');
  });

  it('http:// on a public host fails', async () => {
    const findings = await doctor({ baseUrl: 'http://provcert-doctor-test.invalid/api', timeoutMs: 2_000 });
    expect(byId(findings, 'https')).toMatchObject({
      status: 'fail',
      fix: 'serve the API over HTTPS and use --base-url https://provcert-doctor-test.invalid/api',
    });
  });
});

describe('the address fixes name the base URL corrected by the base address rules', () => {
  it.each<[string, string | undefined, string | undefined]>([
    // One corrected address for both fixes: https (a public host) and without /health.
    [
      'http://api.example.com/health',
      'serve the API over HTTPS and use --base-url https://api.example.com',
      'use --base-url https://api.example.com',
    ],
    ['http://api.example.com/v1/', 'serve the API over HTTPS and use --base-url https://api.example.com/v1', undefined],
    // A local self-test keeps http.
    [
      'http://127.0.0.1:3000/v1/health',
      'before certifying in the portal, expose the backend on a public https:// address',
      'use --base-url http://127.0.0.1:3000/v1',
    ],
    ['https://api.example.com/v1/?debug=1', undefined, 'use --base-url https://api.example.com/v1'],
  ])('%s', (url, httpsFix, basePathFix) => {
    const [https, basePath] = addressDiagnoses(new URL(url), spellAsFlag);
    expect(https.fix).toBe(httpsFix);
    expect(basePath.fix).toBe(basePathFix);
  });
});
