// Accessibility scans with axe-core for the headless-Chromium suites (not a test file itself).
//
//   await withAxeScanner(async (scanner) => {
//     const violations = await scanner.scan(url, { colorScheme: 'dark', prepare: async (page) => {} });
//   });                  // or launchAxeScanner() ... scanner.close() by hand
//
// The pages' CSP (script-src 'self') refuses an injected script, so the scan runs in its own
// browser, launchBrowser({ bypassCSP: true }) from helpers.mjs — same binary and flags as the
// other suites; bypassing the CSP is the only difference from how learners load the page.
// `prepare` brings the page into the state to scan (e.g. press Check so every panel is open).
// Returns axe's violations as short strings: "rule-id: help (n nodes: selector, …)".

import axe from 'axe-core';

import { launchBrowser } from './helpers.mjs';

export async function launchAxeScanner() {
  const browser = await launchBrowser({ bypassCSP: true });
  const { context } = browser;
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
    close: () => browser.close(),
  };
}

/** Runs `use(scanner)` with a fresh scanner and closes it afterwards, even when `use` throws. */
export async function withAxeScanner(use) {
  const scanner = await launchAxeScanner();
  try {
    return await use(scanner);
  } finally {
    await scanner.close();
  }
}
