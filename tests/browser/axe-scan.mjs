// Accessibility scans with axe-core for the headless-Chromium suites (not a test file itself).
//
//   const scanner = await launchAxeScanner();
//   const violations = await scanner.scan(url, { colorScheme: 'dark', prepare: async (page) => {} });
//   await scanner.close();
//
// The pages' CSP (script-src 'self') refuses an injected script, so the scan runs in its own
// browser context with bypassCSP: true — the only difference from how learners load the page.
// `prepare` brings the page into the state to scan (e.g. press Check so every panel is open).
// Returns axe's violations as short strings: "rule-id: help (n nodes: selector, …)".

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium } from 'playwright-core';

// Same browser and flags as helpers.mjs launchBrowser().
const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchAxeScanner() {
  const profile = mkdtempSync(join(tmpdir(), 'masklab-axe-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    bypassCSP: true,
    viewport: { width: 1100, height: 800 },
  });
  return {
    async scan(url, { colorScheme = 'light', width = 1100, prepare = async () => {} } = {}) {
      const page = await context.newPage();
      try {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 800 });
        await page.goto(url, { waitUntil: 'load' });
        await prepare(page);
        await page.evaluate(axe.source);
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
        });
        return violations.map((v) => `${v.id}: ${v.help} (${v.targets.length} nodes: ${v.targets.slice(0, 4).join(', ')})`);
      } finally {
        await page.close();
      }
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
