import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium: the browser tests drive it through playwright-core, never a downloaded build. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium that phones nowhere by itself, so every request seen comes from the page. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Browser tests never skip: without Chromium they fail with this one line. */
export function requireChromium(executable = CHROMIUM): void {
  if (!existsSync(executable))
    throw new Error(`install chromium: apt-get install -y chromium (${executable} is missing)`);
}

/** A headless Chromium context whose profile lives in `dir` (the caller removes dir, and closes the context). */
export async function launchChromium(
  dir: string,
  options: { viewport?: { width: number; height: number }; executable?: string } = {},
): Promise<BrowserContext> {
  const executable = options.executable ?? CHROMIUM;
  requireChromium(executable);
  return chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: executable,
    headless: true,
    args: FLAGS,
    ...(options.viewport ? { viewport: options.viewport } : {}),
  });
}
