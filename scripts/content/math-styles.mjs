// math-styles.mjs — KaTeX's HTML output without inline styles, so it renders under the pages' CSP.
//
// KaTeX positions glyphs with style="height:…;top:…" attributes, and `style-src 'self'` (no
// 'unsafe-inline') blocks every one of them. At build time each distinct style attribute becomes
// a class, and the classes go to one stylesheet (web/generated/content/math.css) that the
// exercise page loads with KaTeX's own katex.css:
//
//   const sheet = createMathStyleSheet();
//   sheet.rewrite('<span class="strut" style="height:0.68em;">') -> '<span class="strut kx-1f2e3d4c">'
//   sheet.css()  -> '.katex .kx-1f2e3d4c{height:0.68em !important}\n…'
//
// Class names are a hash of the declarations, so they do not depend on build order; !important
// keeps the precedence an inline style had over katex.css. MathML (for screen readers) is left
// as KaTeX writes it. Not here: markdown or KaTeX calls (markdown.mjs).

const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?)*)\s*(\/?)>/g;
const ATTRIBUTE = /\s+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?/g;

// FNV-1a, 32 bits, as 8 hex digits: stable names for the same declarations in every build.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function normalise(style) {
  return style
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .join(';');
}

export function createMathStyleSheet() {
  const classes = new Map(); // declarations -> class name

  function classFor(style) {
    const declarations = normalise(style);
    if (!classes.has(declarations)) {
      let name = `kx-${hash(declarations)}`;
      for (let n = 1; [...classes.values()].includes(name); n += 1) name = `kx-${hash(declarations)}-${n}`;
      classes.set(declarations, name);
    }
    return classes.get(declarations);
  }

  return {
    rewrite(html) {
      return html.replace(TAG, (tag, name, attributes, selfClosing) => {
        if (!/\sstyle="/.test(attributes)) return tag;
        const kept = [];
        let className = '';
        let style = '';
        for (const [, key, value = ''] of attributes.matchAll(ATTRIBUTE)) {
          if (key === 'style') style = value;
          else if (key === 'class') className = value;
          else kept.push(` ${key}="${value}"`);
        }
        const classes = [className, style ? classFor(style) : ''].filter(Boolean).join(' ');
        return `<${name}${classes ? ` class="${classes}"` : ''}${kept.join('')}${selfClosing ? ' /' : ''}>`;
      });
    },
    css() {
      return [...classes.entries()]
        .sort(([, a], [, b]) => a.localeCompare(b))
        .map(([declarations, name]) => `.katex .${name}{${declarations.split(';').map((d) => `${d} !important`).join(';')}}`)
        .join('\n');
    },
  };
}
