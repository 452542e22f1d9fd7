import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { chromiumPath } from '../../scripts/test-prerequisites.js';

/**
 * Debian's Chromium driven by playwright-core (never a browser playwright downloads): headless,
 * no sandbox (CI runs as root), nothing that reaches the network on its own, and a fresh profile
 * that is removed afterwards. `npm test` installs the `chromium` package when it is missing, or
 * says how (scripts/pretest.ts).
 */

export interface TestBrowser {
  context: BrowserContext;
  /** A new page that records console errors, CSP violations and uncaught exceptions. */
  page(): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `${chromiumPath} is missing: run npm test, whose pretest installs it or says how`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1100, height: 900 },
  });
  return {
    context,
    async page() {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, problems };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
