// markdown.mjs — content markdown to HTML at build time: markdown-it (raw HTML off, linkify),
// math with KaTeX, and live-number placeholders the page fills from the core.
//
//   const md = createMarkdown({ mathStyles: createMathStyleSheet() });
//   const env = md.newEnv();
//   md.block('Loss $L$ is {{buggy.summary.loss}}.', env)   // '<p>Loss <span class="katex">…</span> is
//                                                           //  <span class="live-number" …></span>.</p>'
//   env.problems  // [{ snippet, message }]: bad math, bad placeholders, headings above ###
//                 // (snippet = the offending source text, so the caller can find its line)
//   env.numbers   // [{ source, metric, format }]: every placeholder, for checking against the core
//
// Math: `$…$` inline, `$$…$$` display (a paragraph of its own or inline), rendered by KaTeX as
// HTML (for the eye) plus MathML (for screen readers). KaTeX's style="" attributes, which the
// pages' CSP blocks, are turned into classes of one generated stylesheet (math-styles.mjs).
// Placeholders: {{buggy.summary.loss}}, {{fixed.sum:batch.rows.*.eos_targets}},
// {{buggy.summary.pad_share|share}}; formats: loss (4 decimals), share (percent), int, number.
// Not here: YAML, positions in files (the caller adds the field's position), any DOM.

import katex from 'katex';
import MarkdownIt from 'markdown-it';

import { parseMetric } from '../../web/shared/claims.js';

export const NUMBER_FORMATS = ['loss', 'share', 'int', 'number'];
const SOURCES = ['buggy', 'fixed'];

const TEXT = {
  katex: (message, tex) => `math $${tex}$ does not parse: ${message.replace(/^KaTeX parse error: /, '')}`,
  unclosedBlockMath: 'a $$ math block is never closed with $$',
  placeholderSyntax: (raw) => `placeholder ${raw} is not {{buggy.path}} or {{fixed.path}} (optionally |loss, |share, |int, |number)`,
  placeholderSource: (raw, source) => `placeholder ${raw}: "${source}" is not buggy or fixed`,
  placeholderFormat: (raw, format) => `placeholder ${raw}: format "${format}" is not one of ${NUMBER_FORMATS.join(', ')}`,
  placeholderMetric: (raw, message) => `placeholder ${raw}: ${message}`,
  heading: (level) => `heading level ${level} is reserved for the page; start content headings at ###`,
  inlineStyle: 'produced an inline style="" attribute, which the CSP blocks (tables with alignment do this)',
};

function renderMath(tex, displayMode, env, mathStyles) {
  const options = { displayMode, output: 'htmlAndMathml', throwOnError: false, trust: false, strict: 'ignore' };
  const html = mathStyles.rewrite(katex.renderToString(tex, options));
  if (html.includes('katex-error')) {
    try {
      katex.renderToString(tex, { ...options, throwOnError: true });
    } catch (error) {
      env.problems.push({ snippet: tex, message: TEXT.katex(error.message, tex) });
    }
    // Show the source rather than KaTeX's error span (it carries a style attribute).
    return `<code class="math-source">${escapeHtml(tex)}</code>`;
  }
  return displayMode ? `<div class="math-display">${html}</div>` : html;
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// $…$ and $$…$$ inside a paragraph. A $ with no closing partner stays a literal dollar, and so
// does "$ 5" (inline math may not start or end with a space, as in pandoc). \$ is a dollar.
function mathInline(state, silent) {
  const { src, pos: start, posMax: max } = state;
  if (src.charCodeAt(start) !== 0x24 /* $ */) return false;
  const delimiter = src.charCodeAt(start + 1) === 0x24 ? '$$' : '$';
  let end = -1;
  for (let search = start + delimiter.length; search < max; ) {
    const at = src.indexOf(delimiter, search);
    if (at === -1 || at + delimiter.length > max) break;
    if (src.charCodeAt(at - 1) === 0x5c /* \ */) {
      search = at + 1;
      continue;
    }
    end = at;
    break;
  }
  if (end === -1) return false;
  const tex = src.slice(start + delimiter.length, end);
  if (tex.trim() === '') return false;
  if (delimiter === '$' && (/^\s/.test(tex) || /\s$/.test(tex))) return false;
  if (!silent) {
    const token = state.push(delimiter === '$$' ? 'math_display_inline' : 'math_inline', 'math', 0);
    token.content = tex;
  }
  state.pos = end + delimiter.length;
  return true;
}

// A block that starts with $$ at the start of a line and ends with $$ (same or later line).
function mathBlock(state, startLine, endLine, silent) {
  const lineStart = state.bMarks[startLine] + state.tShift[startLine];
  if (state.src.slice(lineStart, lineStart + 2) !== '$$') return false;
  const first = state.src.slice(lineStart + 2, state.eMarks[startLine]).trim();
  const lines = [];
  let last = startLine;
  let closed = false;
  if (first.endsWith('$$')) {
    lines.push(first.slice(0, -2));
    closed = true;
  } else {
    lines.push(first);
    for (let line = startLine + 1; line < endLine && !closed; line += 1) {
      const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]).trim();
      last = line;
      if (text.endsWith('$$')) {
        lines.push(text.slice(0, -2));
        closed = true;
      } else lines.push(text);
    }
  }
  if (!closed) {
    if (!silent) state.env.problems.push({ snippet: state.src.slice(lineStart, state.eMarks[startLine]), message: TEXT.unclosedBlockMath });
    return false;
  }
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.content = lines.join('\n').trim();
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

const PLACEHOLDER = /^\{\{\s*([^{}\s]*?)\s*\}\}/;

// {{source.metric|format}} -> a live_number token (or a problem and the literal text).
function liveNumber(state, silent) {
  const { src } = state;
  if (src.charCodeAt(state.pos) !== 0x7b || src.charCodeAt(state.pos + 1) !== 0x7b) return false;
  const match = PLACEHOLDER.exec(src.slice(state.pos, state.posMax));
  if (!match) return false;
  if (!silent) {
    const [raw, inner] = match;
    const dot = inner.indexOf('.');
    const source = dot > 0 ? inner.slice(0, dot) : '';
    const [metric, format, extra] = inner.slice(dot + 1).split('|');
    let problem = null;
    if (dot <= 0 || extra !== undefined || !metric) problem = TEXT.placeholderSyntax(raw);
    else if (!SOURCES.includes(source)) problem = TEXT.placeholderSource(raw, source);
    else if (format !== undefined && !NUMBER_FORMATS.includes(format)) problem = TEXT.placeholderFormat(raw, format);
    else {
      try {
        parseMetric(metric);
      } catch (error) {
        problem = TEXT.placeholderMetric(raw, error.message);
      }
    }
    if (problem) {
      state.env.problems.push({ snippet: raw, message: problem });
      state.push('text', '', 0).content = raw;
    } else {
      state.push('live_number', 'span', 0).meta = { source, metric, format: format ?? '' };
      state.env.numbers.push({ source, metric, format: format ?? '' });
    }
  }
  state.pos += match[0].length;
  return true;
}

export function createMarkdown({ mathStyles }) {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: true });
  md.inline.ruler.after('escape', 'math_inline', mathInline);
  md.inline.ruler.after('math_inline', 'live_number', liveNumber);
  md.block.ruler.after('blockquote', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

  md.renderer.rules.math_inline = (tokens, i, _o, env) => renderMath(tokens[i].content, false, env, mathStyles);
  md.renderer.rules.math_display_inline = (tokens, i, _o, env) => renderMath(tokens[i].content, true, env, mathStyles);
  md.renderer.rules.math_block = (tokens, i, _o, env) => `${renderMath(tokens[i].content, true, env, mathStyles)}\n`;
  md.renderer.rules.live_number = (tokens, i) => {
    const { source, metric, format } = tokens[i].meta;
    const formatAttr = format ? ` data-format="${format}"` : '';
    return `<span class="live-number" data-source="${source}" data-path="${escapeHtml(metric)}"${formatAttr}></span>`;
  };
  const defaultHeading = md.renderer.rules.heading_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.heading_open = (tokens, i, options, env, self) => {
    const level = Number(tokens[i].tag.slice(1));
    if (level < 3) env.problems.push({ snippet: tokens[i + 1]?.content ?? '', message: TEXT.heading(level) });
    return defaultHeading(tokens, i, options, env, self);
  };

  const finish = (html, env) => {
    if (/\sstyle=/.test(html)) env.problems.push({ snippet: '', message: TEXT.inlineStyle });
    return html;
  };
  return {
    newEnv: () => ({ problems: [], numbers: [] }),
    block: (src, env) => finish(md.render(src, env), env),
    inline: (src, env) => finish(md.renderInline(src, env), env),
  };
}
