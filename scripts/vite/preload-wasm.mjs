// Vite build plugin: each page starts fetching the WebAssembly modules it needs as soon as its
// HTML arrives, in parallel with its JavaScript, instead of after the module graph has loaded and
// the Emscripten glue has run.
//
// A page needs a .wasm file when a chunk its entry reaches through static imports refers to it
// (Emscripten's glue names it in `new URL("x.wasm", import.meta.url)`, which Vite rewrites to the
// hashed file). Any module name and any number of modules: a module behind a dynamic import or
// used only in a Web Worker is not preloaded (the page does not need it at once).
//
// The link is <link rel="preload" as="fetch" type="application/wasm" crossorigin>: the glue calls
// fetch(url, { credentials: "same-origin" }) then WebAssembly.instantiateStreaming, and a
// preload is reused only when its request matches that one — as="fetch" with crossorigin
// (anonymous: a CORS-mode request whose credentials are "same-origin"). Without crossorigin the
// browser fetches the file twice and warns that the preload was not used
// (tests/browser/first-paint.test.mjs checks both). The links go right after the page's
// Content-Security-Policy, before the scripts, so the largest file is asked for first.
// Build only: the dev server has no hashed files.

import { baseName, hrefFrom, pageOf, staticChunks } from './page-graph.mjs';

/** The bundle's .wasm files that the page's statically imported chunks refer to, sorted. */
export function wasmFilesOfPage(entry, bundle) {
  const chunks = staticChunks(entry, bundle);
  return Object.keys(bundle)
    .filter((file) => file.endsWith('.wasm'))
    .filter((file) => chunks.some((chunk) => chunk.code.includes(baseName(file))))
    .sort();
}

const CSP_META = /<meta http-equiv="Content-Security-Policy"[^>]*>/;

export function preloadWasm({ root }) {
  return {
    name: 'masklab-preload-wasm',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return html;
        const page = pageOf(root, ctx.filename);
        const links = wasmFilesOfPage(ctx.chunk, ctx.bundle).map(
          (file) => `<link rel="preload" href="${hrefFrom(page, file)}" as="fetch" type="application/wasm" crossorigin>`,
        );
        if (links.length === 0) return html;
        if (CSP_META.test(html)) return html.replace(CSP_META, (meta) => [meta, ...links].join('\n    '));
        return html.replace(/<head>/, (head) => [head, ...links].join('\n    '));
      },
    },
  };
}
