// math.js — the stylesheets KaTeX's build-time HTML needs: KaTeX's own katex.css (Vite bundles
// its fonts as files; vite.config.js inlines no asset, so no data: URL meets font-src 'self') and
// the generated math.css, which holds KaTeX's inline styles as classes because the CSP blocks
// style="" attributes (scripts/content/math-styles.mjs). Imported for its side effects only.

import 'katex/dist/katex.min.css';

import.meta.glob('../generated/content/math.css', { eager: true });
