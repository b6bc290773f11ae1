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

// The dev server injects CSS as inline <style> tags, which the pages' strict CSP refuses. Only
// under `vite` (serve) is 'unsafe-inline' added to style-src; the built site keeps the strict policy.
const devStyles = {
  name: 'masklab-dev-inline-styles',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

export default defineConfig({
  root,
  base: './',
  plugins: [devStyles],
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    // Never inline assets as data: URIs: the CSP allows fonts and images from 'self' only, and
    // KaTeX's small woff2 fonts would otherwise be inlined and blocked.
    assetsInlineLimit: 0,
    rolldownOptions: { input },
  },
  server: { port: 8000, strictPort: true, host: '127.0.0.1' },
  preview: { port: 8000, strictPort: true, host: '127.0.0.1' },
});
