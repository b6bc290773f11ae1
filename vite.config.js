// Vite configuration for the masklab static site.
//
// Root is web/; `vite build` writes dist/. base './' makes every URL in the build relative, so the
// site works from any sub-path (GitHub Pages project sites, a folder on a file server).
// Every web/**/*.html page (outside web/generated) is a build input automatically: adding a page
// needs no change here.

import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

import { inlineStyles } from './scripts/vite/inline-styles.mjs';
import { pageOf } from './scripts/vite/page-graph.mjs';
import { preloadWasm } from './scripts/vite/preload-wasm.mjs';
import { uplotLazyIntl } from './scripts/vite/uplot-lazy-intl.mjs';
import { pageIdOf, siteFooterHtml, siteHeaderHtml } from './web/shared/site-frame.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, 'web');

// Folders under web/ that never hold pages: build outputs and installed packages.
const SKIPPED_FOLDERS = new Set(['generated', 'node_modules']);

function htmlPages(folder) {
  const pages = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) pages.push(...htmlPages(path));
    } else if (entry.isFile() && entry.name.endsWith('.html')) {
      pages.push(path);
    }
  }
  return pages;
}

// { 'index': '/…/web/index.html', 'lab/index': '/…/web/lab/index.html', … }
const input = Object.fromEntries(
  htmlPages(root)
    .sort()
    .map((page) => [relative(root, page).replace(/\.html$/, '').split('\\').join('/'), page]),
);

// What every page's <head> shares, written once: the Content-Security-Policy (no inline scripts,
// no eval, no inline styles but the page's own, by hash (scripts/vite/inline-styles.mjs); wasm
// may compile), the icon and the site's styles. Pages keep only their own
// title, description and script. Injected before Vite processes the HTML, so the stylesheet is
// bundled and hashed like any other.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

function pageHead({ dev }) {
  // The dev server injects CSS as inline <style> tags, which the strict policy refuses; only under
  // `vite` (serve) does style-src allow them. The built site keeps the strict policy.
  const policy = dev ? CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") : CSP;
  return [
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<link rel="icon" href="./favicon.svg" type="image/svg+xml">',
    '<link rel="stylesheet" href="./shared/site.css">',
  ].join('\n    ');
}

const sharedHead = {
  name: 'masklab-page-head',
  transformIndexHtml: {
    order: 'pre',
    handler: (html, ctx) => html.replace(/<meta charset="utf-8">/, (m) => `${m}\n    ${pageHead({ dev: Boolean(ctx.server) })}`),
  },
};

// The header and footer of every page listed in SITE_PAGES, written into its HTML so they are in
// the first paint (web/shared/site-frame.js). Other pages (the stand-in host page) get neither.
const sharedFrame = {
  name: 'masklab-page-frame',
  transformIndexHtml: {
    order: 'pre',
    handler: (html, ctx) => {
      const id = pageIdOf(pageOf(root, ctx.filename));
      if (id === null) return html;
      return html
        .replace(/<body[^>]*>/, (body) => `${body}\n    ${siteHeaderHtml(id)}`)
        .replace(/<\/body>/, (end) => `  ${siteFooterHtml()}\n  ${end}`);
    },
  },
};

// The frame every page loads (header, embed mode, lazy sections, URL state and its note, number
// format, Vite's dynamic-import helper) as one chunk. Left to itself the bundler splits these small modules by
// which pages share each one, into 8–9 files of 0.2–2 KB gzip; a page then asked for 12–17
// scripts before it could run, and over HTTP/1.1 (6 connections per host) that is three waves
// of requests. One file is also smaller in gzip than its parts; a page that does not use all of
// it (URL state, the number format) gets under 1.5 KB it does not run.
const FRAME_MODULES = /web[\\/]shared[\\/](dom|embed|escape-html|page|later|share-later|url-state|url-note|format|site-pages)\.js$|preload-helper/;

export default defineConfig({
  root,
  base: './',
  // The shared head and frame first; after Vite has written each page's tags: its styles inline,
  // its wasm preloaded (scripts/vite/). uPlot makes its Intl objects on first use, not on import.
  plugins: [sharedHead, sharedFrame, inlineStyles({ root }), preloadWasm({ root }), uplotLazyIntl()],
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    // Never inline assets as data: URIs: the CSP allows fonts and images from 'self' only, and
    // KaTeX's small woff2 fonts would otherwise be inlined and blocked.
    assetsInlineLimit: 0,
    rolldownOptions: { input, output: { codeSplitting: { groups: [{ name: 'frame', test: FRAME_MODULES }] } } },
  },
  // Workers as ES modules: the Train page's worker imports the Emscripten ES module, which finds
  // its .wasm through import.meta.url (an IIFE worker bundle has no import.meta).
  worker: { format: 'es' },
  server: { port: 8000, strictPort: true, host: '127.0.0.1' },
  preview: { port: 8000, strictPort: true, host: '127.0.0.1' },
});
