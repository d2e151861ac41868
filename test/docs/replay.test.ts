import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, expect, it } from 'vitest';
import { REFERENCE_SLUG, type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { repo, runCommand, userEnv } from '../cli/packed-provcert.js';
import { runCli } from '../support/cli.js';
import { reservePorts } from '../support/ports.js';
import { spawnGroup } from '../support/process-groups.js';
import { scratchDir } from '../support/scratch.js';
import {
  chainOf,
  fencedBlockAfter,
  type ReadmeCommand,
  type ShBlock,
  sampleMismatch,
  shBlocks,
  unsupportedSyntax,
} from './markdown-blocks.js';

/**
 * Every ```sh block of README.md and of the docs pages runs here as written, in order, in a temporary directory:
 * `npx provcert` resolves to this checkout (node_modules/.bin/provcert links to bin/provcert.js, as `npm install`
 * links a dependency's bin), and the "backend" the pages talk about is the reference provider on loopback. The
 * sample outputs are compared with what the tool prints now. (The generated reference tables are compared with the
 * CLI in generated.test.ts.)
 */

const README = readFileSync(join(repo, 'README.md'), 'utf8');
/** Pages whose ```sh blocks another test runs, with that test. */
const RUN_ELSEWHERE: Record<string, string> = {
  'docs/core-server.md': 'test/e2e/review-desk.e2e.test.ts runs every curl example against a real server',
};
/** README.md and every page under docs/, in a stable order. */
const PAGES = [
  'README.md',
  ...readdirSync(join(repo, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split('\\').join('/')}`)
    .filter((page) => !(page in RUN_ELSEWHERE))
    .sort(),
];
const pageText = (page: string): string => readFileSync(join(repo, page), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;

const CREDENTIAL = 'readme-credential-4Tq9';
const WEBHOOK_SECRET = 'readme-webhook-secret-Hx81';
const SIGNED_BODY = '{"eventId":"evt-readme-1"}';

/** What the README's placeholders and fixed addresses stand for in this test. */
interface World {
  work: string;
  /** Stands in for "your backend" (localhost:3000): the conforming reference provider. */
  backend: RunningProvider;
  /** The provider whose report.json the operator section starts from: quote-total-wrong switched on. */
  broken: RunningProvider;
  /**
   * Stands in for 8787, the receiver's and serve's default port (tests run in parallel; 8787 may be taken), in the
   * section that certifies "your backend": where the backend delivers its webhooks.
   */
  receiverPort: number;
  /** The same for the operator's section: where the broken provider delivers, and the port report.json records. */
  brokenReceiverPort: number;
  /** Stands in for 8787 in every other section, one each (sections run at once), and one for the samples. */
  sectionPorts: number[];
  /** Stands in for 4010, the port the reference-provider recipe gives mock-provider. */
  mockPort: number;
}

/*
 * Every reference provider this test certifies (the pages' `demo` and `mock-provider` included) gives its default
 * 5 s quotes, the contract's minimum, as the pages run it: when a loaded machine delays provcert past a quote's
 * expiry, provcert re-quotes (docs/decisions.md, "provcert re-quotes when its own slowness expired a quote") rather
 * than failing a conforming provider; quote-expiry waits for the quote to expire.
 */

/** Literal text of a command replaced before it runs; few on purpose, each for a reason. */
const SUBSTITUTIONS: { readme: RegExp; actual: (w: World, receiverPort: number) => string; why: string }[] = [
  {
    readme: /\blocalhost:3000\b/g,
    actual: (w) => `127.0.0.1:${w.backend.port}`,
    why: 'your backend → the reference provider',
  },
  {
    readme: /\b8787\b/g,
    actual: (_, receiverPort) => String(receiverPort),
    why: 'the default receiver port → a free one (and PROVCERT_WEBHOOK_PORT)',
  },
  { readme: /\b4010\b/g, actual: (w) => String(w.mockPort), why: "the recipe's mock-provider port → a free one" },
  {
    readme: /(^|\s)node bin\/provcert\.js\b/g,
    actual: () => `$1node ${join(repo, 'bin/provcert.js')}`,
    why: 'in a provcert checkout',
  },
];

/** Values for `export NAME=…`: the placeholder stands for a secret the reader has. */
const EXPORTED: Record<string, (w: World) => string> = {
  PROVIDER_API_KEY: () => CREDENTIAL,
  SERVICE_WEBHOOK_SECRET: () => WEBHOOK_SECRET,
  PROVCERT_ADMIN_TOKEN: () => 'readme-admin-token',
  // The operator section's provider: the one whose report.json the reader starts from.
  PROVIDER_BASE_URL: (w) => w.broken.url,
};

/** The reader's shell before any block: variables the pages assume are set, and the files they name. */
const readerEnv = (receiverPort: number): Record<string, string> =>
  userEnv({
    BODY: SIGNED_BODY, // "$BODY": the bytes your backend signed
    OTHER_KEY: CREDENTIAL, // "--credential-env OTHER_KEY": the credential kept elsewhere
    PROVCERT_WEBHOOK_PORT: String(receiverPort), // run's default receiver port, as 8787 is substituted
  });

/** Commands left out, each covered elsewhere; the README must use exactly these (a new one needs a decision here). */
const SKIPPED: Record<string, string> = {
  'npm install': 'installs this checkout: the test runs in the installed checkout',
  'npm test': 'this test suite itself',
  'npm pack --pack-destination /path/to/your-repo/vendor': 'test/cli/pack.e2e.test.ts packs this checkout',
  [`npm install --save-dev ./vendor/provcert-${VERSION}.tgz`]:
    'test/cli/pack.e2e.test.ts installs the tarball in a new project',
};

/** Exit codes other than 0, by command as written. */
const EXPECTED_EXIT: { command: RegExp; exit: number; why: string }[] = [
  {
    command: /^npx provcert replay report\.json\b/,
    exit: 1,
    why: 'report.json holds a quote-math failure the provider still has',
  },
];
const signature = (body: string): string => createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
const readWork = (w: World, file: string): Promise<string> => readFile(join(w.work, file), 'utf8');

/** What some commands must also print or write, beyond their exit code. */
const THEN: { command: RegExp; check: (out: string, w: World) => Promise<void> | void }[] = [
  { command: /^npx provcert --version$/, check: (out) => expect(out.trim()).toBe(VERSION) },
  { command: /provcert sign -$/, check: (out) => expect(out.trim()).toBe(signature(SIGNED_BODY)) },
  { command: /provcert validate .*Catalog -$/, check: (out) => expect(out).toMatch(/^valid Catalog/m) },
  { command: /^npx provcert run /, check: (out) => expect(out).toMatch(/^PASS {2}\d+ passed, 0 failed/m) },
  {
    // report.json's failures: quote-math and quote-explore (a wrong total fails both); --check names one.
    command: /^npx provcert replay /,
    check: (out) => expect(out).toMatch(/^replayed (1 check: 1 still fails|2 checks: 2 still fail)$/m),
  },
  {
    command: /--html report\.html$/,
    check: async (_, w) => expect(await readWork(w, 'report.html')).toMatch(/^<!doctype html>/i),
  },
];

/** Commands that serve until stopped: the reader runs them in a second terminal; here they run in the background. */
const SERVERS = /^npx provcert (serve|mock-provider)\b(?!.*--list-faults)/;
const PROVCERT = /^(npx provcert|node bin\/provcert\.js)(\s|$)/;
/** Programs that only feed a provcert command through a pipe. */
const FEEDERS = /^(curl|printf)\s/;

type Step =
  | { kind: 'export'; assignments: [string, string][] }
  | { kind: 'skip'; skipped: string[] }
  | { kind: 'server' | 'command'; run: string; skipped: string[] };
const isSkipped = (pipeline: string[]): boolean => pipeline.length === 1 && (pipeline[0] ?? '') in SKIPPED;

/** How the test runs a page's command, or why it cannot. */
function stepOf(command: ReadmeCommand, page: string): Step | { kind: 'unknown'; reason: string } {
  const where = `${page}:${command.line} \`${command.text}\``;
  const syntax = unsupportedSyntax(command.text);
  if (syntax) return { kind: 'unknown', reason: `${where}: ${syntax}` };
  if (command.text.startsWith('export ')) {
    const assignments = command.text
      .slice(7)
      .trim()
      .split(/\s+/)
      .map((a) => a.split('=') as [string, string]);
    const bad = assignments.find(([name, value]) => value === undefined || (value === '…' && !(name in EXPORTED)));
    return bad ? { kind: 'unknown', reason: `${where}: no test value for ${bad[0]}` } : { kind: 'export', assignments };
  }
  const chain = chainOf(command.text);
  const skipped = chain.filter(isSkipped).map((p) => p.join(''));
  const rest = chain.filter((p) => !isSkipped(p));
  if (rest.length === 0) return { kind: 'skip', skipped };
  const understood = (pipeline: string[]): boolean =>
    PROVCERT.test(pipeline.at(-1) ?? '') && pipeline.slice(0, -1).every((p) => FEEDERS.test(p));
  if (!rest.every(understood)) {
    return {
      kind: 'unknown',
      reason: `${where}: the test knows provcert commands (fed by curl or printf) and the skipped npm lines`,
    };
  }
  const run = rest.map((p) => p.join(' | ')).join(' && ');
  return { kind: SERVERS.test(run) ? 'server' : 'command', run, skipped };
}

const substitute = (text: string, w: World, receiverPort: number): string =>
  SUBSTITUTIONS.reduce((t, s) => t.replace(s.readme, s.actual(w, receiverPort)), text);

interface Background {
  stop: () => Promise<void>;
}

/**
 * Starts a server command in its own process group (ended with the test file and the worker, however they end)
 * and waits until it says it is listening.
 */
async function startServer(run: string, cwd: string, env: Record<string, string>): Promise<Background> {
  const child = spawnGroup('bash', ['-c', `exec ${run}`], { cwd, env });
  let output = '';
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async (): Promise<void> => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await closed;
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`\`${run}\` did not say it was listening within 30 s:\n${output}`)),
      30_000,
    );
    const seen = (d: Buffer): void => {
      output += d.toString();
      if (/listening on http:\/\/\S+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void closed.then(() => {
      clearTimeout(timer);
      reject(new Error(`\`${run}\` ended before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { stop };
}

const BLOCKS = PAGES.flatMap((page) => shBlocks(page, pageText(page)));

/** A `## ` section of a page: its blocks run in order in one reader's shell; sections are independent. */
interface Section {
  name: string;
  blocks: ShBlock[];
}
const SECTIONS: Section[] = [];
for (const block of BLOCKS) {
  const name = `${block.page} › ${block.section}`;
  const section = SECTIONS.find((s) => s.name === name);
  if (section) section.blocks.push(block);
  else SECTIONS.push({ name, blocks: [block] });
}

/** What 8787 stands for in a section: where the provider it certifies delivers its webhooks, else its own port. */
function receiverPortOf(section: Section, w: World): number {
  const text = section.blocks.flatMap((b) => b.commands.map((c) => c.text)).join('\n');
  if (/\blocalhost:3000\b/.test(text)) return w.receiverPort;
  if (/\breport\.json\b/.test(text)) return w.brokenReceiverPort;
  return w.sectionPorts[SECTIONS.indexOf(section)] ?? 0;
}

let world: World;

/** The files the README names: `npx provcert` itself, my-offering.json (a valid Offering), report.json (a failed run). */
async function readerFiles(work: string, broken: RunningProvider, brokenReceiverPort: number): Promise<void> {
  await mkdir(join(work, 'node_modules/.bin'), { recursive: true });
  await symlink(join(repo, 'bin/provcert.js'), join(work, 'node_modules/.bin/provcert'));
  const offerings = join(repo, 'fixtures/payloads/Offering');
  const valid = (await readdir(offerings)).filter((f) => f.startsWith('valid-')).sort()[0];
  if (!valid) throw new Error('fixtures/payloads/Offering has no valid-*.json');
  await copyFile(join(offerings, valid), join(work, 'my-offering.json'));
  const args = [
    'run',
    '--base-url',
    broken.url,
    '--auth',
    'API_KEY',
    '--local',
    '--webhook-port',
    String(brokenReceiverPort),
  ];
  // Only the two checks the fault fails, and a small exploration budget (the report records it and every replay
  // reuses it): the report is the operator's starting point, and a full certification of a conforming provider is
  // what the pages' own `run` commands already do. A wrong total fails every quote, so both checks still fail.
  const only = ['--only', 'quote-math,quote-explore', '--explore', '20'];
  const run = await runCli([...args, ...only, '--json', join(work, 'report.json')], {
    env: { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
  if (run.code !== 1)
    throw new Error(`the run writing report.json exited ${String(run.code)}, not 1:\n${run.stdout}${run.stderr}`);
}

beforeAll(async () => {
  const work = await scratchDir('readme');
  // Held while the two providers start on port 0, which could otherwise be given one of these.
  const reserved = await reservePorts(4 + SECTIONS.length);
  const [receiverPort = 0, brokenReceiverPort = 0, mockPort = 0, ...sectionPorts] = reserved.ports;
  const provider = (dataFile: string, port: number, faults: 'quote-total-wrong'[] = []) =>
    startReferenceProvider({
      authMethod: 'API_KEY',
      credential: CREDENTIAL,
      webhookSecret: WEBHOOK_SECRET,
      faults,
      webhookUrl: `http://127.0.0.1:${port}/api/v1/webhooks/${REFERENCE_SLUG}`,
      dataFile: join(work, dataFile),
    });
  try {
    world = {
      work,
      backend: await provider('backend.json', receiverPort),
      broken: await provider('broken.json', brokenReceiverPort, ['quote-total-wrong']),
      receiverPort,
      brokenReceiverPort,
      sectionPorts,
      mockPort,
    };
  } finally {
    await reserved.release();
  }
  await readerFiles(work, world.broken, brokenReceiverPort);
}, 60_000);

afterAll(async () => {
  await world?.backend.close();
  await world?.broken.close();
  if (world?.work) await rm(world.work, { recursive: true, force: true });
});

// Sections run at once (each with its own receiver port, see receiverPortOf); a section's blocks run in order.
describe.concurrent('```sh blocks of README.md and docs/', () => {
  it('uses only commands this test knows how to run, and skips exactly the known npm lines', () => {
    const steps = BLOCKS.flatMap((b) => b.commands.map((c) => stepOf(c, b.page)));
    expect(steps.flatMap((s) => (s.kind === 'unknown' ? [s.reason] : []))).toEqual([]);
    const skipped = new Set(steps.flatMap((s) => ('skipped' in s ? s.skipped : [])));
    expect([...skipped].sort()).toEqual(Object.keys(SKIPPED).sort());
    // Each expectation must still meet a README command, or it tests nothing.
    const runs = BLOCKS.flatMap((b) => b.commands.map((c) => c.text));
    for (const { command } of [...EXPECTED_EXIT, ...THEN]) {
      expect(
        runs.some((r) => command.test(r)),
        String(command),
      ).toBe(true);
    }
    // ...and so must each substitution, or the command it was made for runs unchanged.
    for (const { readme, why } of SUBSTITUTIONS)
      expect(
        runs.some((r) => r.search(readme) >= 0),
        why,
      ).toBe(true);
  });

  for (const section of SECTIONS) {
    const lines = section.blocks.map((b) => b.line).join(', ');
    it(`${section.name} (lines ${lines}) runs as written`, async ({ expect }) => {
      const port = receiverPortOf(section, world);
      const env = readerEnv(port);
      for (const block of section.blocks) await runBlock(block, env, port, expect);
    }, 300_000);
  }
});

/** One block's commands in order, in the section's shell `env`; the servers it starts end with the block. */
async function runBlock(
  block: ShBlock,
  env: Record<string, string>,
  port: number,
  expect: ExpectStatic,
): Promise<void> {
  const servers: Background[] = [];
  try {
    for (const command of block.commands) {
      const step = stepOf(command, block.page);
      if (step.kind === 'unknown') throw new Error(step.reason);
      if (step.kind === 'skip') continue;
      if (step.kind === 'export') {
        for (const [name, value] of step.assignments)
          env[name] = value === '…' ? (EXPORTED[name]?.(world) ?? '') : value;
        continue;
      }
      const run = substitute(step.run, world, port);
      if (step.kind === 'server') {
        servers.push(await startServer(run, world.work, env));
        continue;
      }
      const r = await runCommand('bash', ['-c', run], world.work, { env, timeoutMs: 120_000 });
      const expected = EXPECTED_EXIT.find((e) => e.command.test(command.text))?.exit ?? 0;
      expect(r.code, `${block.page}:${command.line} ${run}\n${r.stdout}${r.stderr}`).toBe(expected);
      for (const then of THEN.filter((t) => t.command.test(command.text))) await then.check(r.stdout, world);
    }
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

describe.concurrent('sample outputs', () => {
  it('the quick-start failure is what `demo --fault quote-total-wrong` prints', async () => {
    const command = /`(node bin\/provcert\.js demo --fault [a-z-]+)`/.exec(README)?.[1];
    if (!command) throw new Error('README.md no longer names `node bin/provcert.js demo --fault …`');
    const sample = fencedBlockAfter('README.md', README, command, 'text');
    const port = world.sectionPorts[SECTIONS.length] ?? 0; // one no section uses
    const r = await runCommand('bash', ['-c', substitute(command, world, port)], world.work, {
      env: readerEnv(port),
      timeoutMs: 120_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(sampleMismatch(sample, r.stdout), r.stdout).toBeUndefined();
    // The comparison can fail: the same sample with one number changed does not match.
    expect(sampleMismatch(sample.replace('2 failed', '3 failed'), r.stdout)).toMatch(/^not printed: FAIL/);
  }, 120_000);

  it('the coverage line is what `provcert coverage` prints', async () => {
    const sample = fencedBlockAfter(
      'docs/coverage.md',
      pageText('docs/coverage.md'),
      '`provcert coverage` prints the matrix',
      'text',
    );
    const r = await runCli(['coverage']);
    expect(r.code, r.stderr).toBe(0);
    expect(sampleMismatch(sample, r.stdout), r.stdout).toBeUndefined();
  });
});
