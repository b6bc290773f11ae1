// Vite build plugin: a page's own stylesheets are written into its HTML as <style> elements, so
// the first paint waits for the HTML alone.
//
// Why: a <link rel="stylesheet"> blocks rendering until it has arrived, and Vite lists a page's
// stylesheets after its module script and a dozen modulepreloads. Over HTTP/1.1 (6 connections
// per host) the stylesheets then wait behind the JavaScript, and the first paint came ~100 ms
// after an empty page's even on pages with no wasm. The styles are small (6–26 KB raw per page,
// 2–6 KB gzip), so carrying them in each page costs less than a round trip.
//
// The Content-Security-Policy stays strict: each inlined element's SHA-256 is added to
// style-src (no 'unsafe-inline'). CSS loaded later (KaTeX, uPlot, a lazy panel's styles) stays a
// file. A stylesheet is kept as a link when a chunk the page can load later names it: Vite's
// loader for lazy chunks looks for a <link> with that href before adding one, and would otherwise
// append the file a second time, after the page's own rules. Relative url()s are rewritten from
// the stylesheet's folder to the page's. Build only: the dev server injects its own styles.

import { createHash } from 'node:crypto';
import { posix } from 'node:path';

import { baseName, hrefFrom, pageOf, reachableChunks } from './page-graph.mjs';

const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="([^"]+)">/g;
const CSP_META = /(<meta http-equiv="Content-Security-Policy" content="[^"]*style-src 'self')/;

// url(x) in a stylesheet at `cssFile`, rewritten for a page at `pagePath` (both bundle-relative).
function rebaseUrls(css, cssFile, pagePath) {
  return css.replace(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g, (whole, quote, ref) => {
    if (/^(?:[a-z]+:|\/|#)/i.test(ref)) return whole; // data:, https:, /absolute, #fragment
    const target = posix.normalize(posix.join(posix.dirname(cssFile), ref));
    return `url(${quote}${hrefFrom(pagePath, target)}${quote})`;
  });
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export function inlineStyles({ root }) {
  return {
    name: 'masklab-inline-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return html;
        const page = pageOf(root, ctx.filename);
        const later = reachableChunks(ctx.chunk, ctx.bundle);
        const hashes = [];
        const out = html.replace(STYLESHEET_LINK, (link, href) => {
          const file = posix.normalize(posix.join(posix.dirname(page), href));
          const asset = ctx.bundle[file];
          if (!asset || asset.type !== 'asset') return link;
          if (later.some((chunk) => chunk.code.includes(baseName(file)))) return link;
          const css = rebaseUrls(String(asset.source), file, page).trim();
          if (/<\/style/i.test(css)) return link;
          hashes.push(sha256(css));
          return `<style>${css}</style>`;
        });
        if (hashes.length === 0) return html;
        if (!CSP_META.test(out)) throw new Error(`${page}: inlined styles need the page's CSP meta with style-src 'self'`);
        return out.replace(CSP_META, (policy) => `${policy} ${hashes.join(' ')}`);
      },
    },
  };
}
