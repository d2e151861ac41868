import { describe, expect, it } from 'vitest';
import { launchChromium, requireChromium } from './chromium.js';
import { scratchDir } from './scratch.js';

describe('browser tests without Chromium', () => {
  it('fail with the one line that says how to install it, never skip', async () => {
    const missing = '/nonexistent/chromium-for-this-test';
    expect(() => requireChromium(missing)).toThrow(
      /^install chromium: apt-get install -y chromium \(\/nonexistent\/chromium-for-this-test is missing\)$/,
    );
    const dir = await scratchDir('chromium-missing');
    await expect(launchChromium(dir, { executable: missing })).rejects.toThrow(/^install chromium: apt-get install/);
  });
});
