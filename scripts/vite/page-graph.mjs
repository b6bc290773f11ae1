// What a built page loads, read from Vite's bundle in transformIndexHtml's `post` hook: the chunks
// its entry reaches through static imports (fetched at once), and those it may reach later through
// dynamic imports (lazy panels, KaTeX, …). Shared by the build plugins that rewrite a page's <head>.

import { posix } from 'node:path';

/** The entry chunk and every chunk it imports statically, transitively: what the page loads at once. */
export function staticChunks(entry, bundle) {
  const seen = new Map();
  const visit = (chunk) => {
    if (!chunk || chunk.type !== 'chunk' || seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports ?? []) visit(bundle[file]);
  };
  visit(entry);
  return [...seen.values()];
}

/** Every chunk the page can ever load: static imports and dynamic imports, transitively. */
export function reachableChunks(entry, bundle) {
  const seen = new Map();
  const visit = (chunk) => {
    if (!chunk || chunk.type !== 'chunk' || seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const file of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(bundle[file]);
  };
  visit(entry);
  return [...seen.values()];
}

/** The page's path inside the site ('doctor.html', 'lab/index.html'), from the HTML file's path. */
export function pageOf(root, filename) {
  return posix.relative(root.split('\\').join('/'), filename.split('\\').join('/'));
}

/** A bundle file as the page at `page` refers to it: './assets/x.wasm', '../assets/x.css'. */
export function hrefFrom(page, file) {
  const href = posix.relative(posix.dirname(page), file);
  return href.startsWith('.') ? href : `./${href}`;
}

/** The last path segment of a bundle file name ('assets/x-Hash.wasm' -> 'x-Hash.wasm'). */
export const baseName = (fileName) => fileName.slice(fileName.lastIndexOf('/') + 1);
