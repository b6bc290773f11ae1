// Shared helpers for the headless-Chromium suites in tests/browser/ (not a test file itself).
//
// - startSite(): serves the built site (dist/, from `vite build`) from a tiny static server on a
//   free port, mounted under a sub-path (/masklab/) to prove the build works away from the
//   domain root. .wasm is served as application/wasm so streaming compilation is used.
// - launchBrowser({ bypassCSP }): Debian's Chromium through playwright-core, fresh temp profile,
//   no downloads. open(url) returns the page plus `problems`: console errors, uncaught page
//   errors, failed requests and HTTP errors, so a test can assert that a page logged nothing bad.
//   bypassCSP is for axe-scan.mjs only (it injects a script); learners' pages keep their CSP.
// - useSiteAndBrowser(): the before/after hooks every suite here needs (site + browser), and
//   open(path) relative to the site, recording every page's problems for allProblems().
// - launchChromium(): the same Chromium as a plain Browser (for many fresh contexts; the page
//   benchmark, scripts/bench/pages.mjs, uses it).
// Always close() what you start (use `after`).

import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(REPO_ROOT, 'dist');
export const MOUNT = '/masklab/';

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

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves dist/ (or another built site, `root`) under MOUNT on 127.0.0.1:<free port>.
 * Returns { url, close }. Two calls give two origins (different ports): the embed tests frame
 * the site from a host page served by a second one.
 */
export async function startSite({ root = DIST } = {}) {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root}/index.html is missing — run \`npx vite build\` first`);

  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === MOUNT.slice(0, -1)) {
      response.writeHead(301, { location: MOUNT }).end();
      return;
    }
    if (!pathname.startsWith(MOUNT) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    let path;
    try {
      path = normalize(join(root, decodeURIComponent(pathname.slice(MOUNT.length))));
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (path !== root && !path.startsWith(root + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(path).pipe(response);
  });

  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${MOUNT}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * A second origin for embed tests: serves fixed pages from memory on 127.0.0.1:<another free
 * port>, as a course author's site would. `pages` maps a path ('/host.html') to its HTML.
 * Returns { url(path), origin, close }.
 */
export async function startHostSite(pages) {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    const body = pages[pathname];
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * Launches the same Chromium (binary, flags, headless) as a plain Browser, for callers that need
 * many fresh contexts: each browser.newContext() starts with an empty cache and storage.
 * Playwright gives the browser its own temporary user-data dir and removes it on close().
 */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Launches Chromium with a fresh profile. Returns { context, open(url), close }.
 * `bypassCSP: true` lets a test inject scripts the pages' CSP would refuse (axe-scan.mjs); every
 * other suite runs the pages under their real CSP, so a CSP violation shows up in `problems`.
 */
export async function launchBrowser({ bypassCSP = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'masklab-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      bypassCSP,
      viewport: { width: 1100, height: 800 },
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }

  return {
    context,
    /**
     * Opens url in a new tab; `problems` collects everything the page should never log.
     * `prepare(page)` runs before navigation (e.g. to install page.route() interceptions).
     */
    async open(url, { prepare } = {}) {
      const page = await context.newPage();
      if (prepare) await prepare(page);
      const problems = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) =>
        problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
      );
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await page.goto(url, { waitUntil: 'load' });
      return { page, problems };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Registers the node:test hooks a suite file needs: before its tests, start the site and a
 * browser, then run `setUp()` if given (e.g. open the one page the file tests); after them, close
 * both. Call it once, at the top of the file. Do the file's own set-up in `setUp`, not in a second
 * `before`: node starts top-level hooks without waiting for the one before, so a second hook could
 * run before the browser exists. The returned handle, for tests and `setUp`:
 *   site, browser            from startSite() and launchBrowser()
 *   url(path)                the page's address on the site: url('lab.html?a=1')
 *   open(path, options)      browser.open(url(path), options) -> { page, problems }
 *   openAt(path, view)       open at a view { width, colorScheme } (VIEWS lists the six)
 *   openSettled(path, {failed})  open, then wait until <body data-state="ready"> or the page's
 *                            error status (`failed`, default '#status.error-box') shows, so a
 *                            broken page fails in the assertions rather than as a timeout
 *   allProblems()            the problems of every page opened through open(), in one list
 *   scrollWidthAt(path, width)  opens path at that viewport width and returns the document's
 *                            scrollWidth once ready (equal to width: no sideways scrolling)
 */
/** The layouts every page is checked at: three widths, light and dark. */
export const VIEWS = [1280, 375, 320].flatMap((width) => ['light', 'dark'].map((colorScheme) => ({ width, colorScheme, name: `${width} px ${colorScheme}` })));

export function useSiteAndBrowser({ setUp } = {}) {
  const problemLists = [];
  const suite = {
    site: null,
    browser: null,
    url: (path = '') => `${suite.site.url}${path}`,
    async open(path = '', options) {
      const opened = await suite.browser.open(suite.url(path), options);
      problemLists.push(opened.problems);
      return opened;
    },
    /** open() at a view from VIEWS (width, colour scheme) set before the page loads. */
    async openAt(path, { width, colorScheme, height = 800 }) {
      return suite.open(path, {
        prepare: async (page) => {
          await page.setViewportSize({ width, height });
          await page.emulateMedia({ colorScheme });
        },
      });
    },
    async openSettled(path = '', { failed = '#status.error-box' } = {}) {
      const opened = await suite.open(path);
      await opened.page.waitForSelector(`body[data-state="ready"], ${failed}`, { timeout: 20_000 });
      return opened;
    },
    allProblems: () => problemLists.flat(),
    async scrollWidthAt(path, width) {
      const { page } = await suite.open(path);
      try {
        await page.setViewportSize({ width, height: 700 });
        await page.waitForSelector('body[data-state="ready"]');
        return await page.evaluate(() => document.documentElement.scrollWidth);
      } finally {
        await page.close();
      }
    },
  };
  before(async () => {
    suite.site = await startSite();
    suite.browser = await launchBrowser();
    await setUp?.();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.site?.close();
  });
  return suite;
}
