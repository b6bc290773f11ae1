// authors/main.js — the course authors page (authors.html): how to embed any exercise or lab,
// the URL parameters and the postMessage protocol, a live embedded exercise with a log of the
// messages it sends, and a form that builds an embed code.
//
// Everything shown from another document (the iframe's messages) goes in as text. The snippets
// use this site's real address, computed from location, so they work when pasted. Not here: the
// protocol itself (shared/embed.js) or the message log (message-log.js).

import { h, replaceChildren } from '../shared/dom.js';
import { embedCode } from '../shared/embed.js';
import { initPage } from '../shared/page.js';
import { exerciseIndex } from '../exercise/catalog.js';
import { createCopyControl } from '../shared/copy-text.js';
import { createMessageLog } from './message-log.js';
import { WIDGETS, widgetById } from './widgets.js';
import './authors.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  copyEmbed: 'Copy embed code',
  copySnippet: 'Copy the listener',
  embedArea: 'Embed code',
  snippetArea: 'Listener code',
  frameTitle: (label, title) => (title ? `masklab ${label.toLowerCase()}: ${title}` : `masklab ${label.toLowerCase()}`),
  noPanels: 'This page has no panels to hide.',
  panelsOf: (label) => `Panels of the ${label.toLowerCase()}`,
  preview: 'Show this in the live example',
  previewed: 'The live example below now shows this embed; its messages start a new log.',
  lastScore: (d) => `Last answer received: ${d.score} / ${d.maxScore} on “${d.exercise}”.`,
  noExercises: 'No exercises compiled',
};

initPage({ widget: 'authors' });
const index = exerciseIndex();
const firstExercise = index[0]?.id ?? '';

/** Absolute URL of a widget page with its parameters (what an iframe in another site needs). */
function widgetUrl({ widget, exercise, hide }) {
  const spec = widgetById(widget);
  const url = new URL(`./${spec.page}`, location.href);
  const params = new URLSearchParams();
  if (spec.id === 'exercise' && exercise) params.set('ex', exercise);
  params.set('embed', '1');
  if (hide.length) params.set('hide', hide.join(','));
  url.search = params.toString();
  return url.href;
}

function listenerSnippet(src) {
  return `<iframe id="masklab-frame" src="${src.replace(/"/g, '%22')}"
        title="masklab exercise" width="100%" height="900" loading="lazy"></iframe>
<script>
  // Listen to the masklab iframe: resize it to its content and read the score.
  const frame = document.getElementById('masklab-frame');
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow) return;               // only this iframe
    if (event.origin !== new URL(frame.src).origin) return;        // only the masklab site
    const data = event.data;
    if (!data || data.source !== 'masklab') return;                  // only masklab messages
    if (data.type === 'resize') frame.height = String(data.height);  // content height in px
    if (data.type === 'answered') {
      // data.exercise: exercise id; data.score of data.maxScore; data.marked: marked word indices
      console.log(\`masklab: \${data.exercise} scored \${data.score} / \${data.maxScore}\`);
    }
  });
</script>`;
}

// ---- the listener snippet --------------------------------------------------------------------
const snippetSrc = widgetUrl({ widget: 'exercise', exercise: firstExercise, hide: [] });
document.getElementById('listener-code').textContent = listenerSnippet(snippetSrc);
document
  .getElementById('listener-copy')
  .append(createCopyControl({ label: TEXT.copySnippet, getText: () => listenerSnippet(snippetSrc), textareaLabel: TEXT.snippetArea }).element);

// ---- the parameter reference: panel names per widget ------------------------------------------
replaceChildren(
  document.getElementById('panel-reference'),
  WIDGETS.map((w) =>
    h(
      'div',
      { class: 'panel-names' },
      h('dt', {}, h('a', { href: `./${w.page}` }, w.label), ' ', h('code', {}, w.page)),
      h('dd', {}, w.panels.length ? w.panels.map(([name, what], i) => [i ? ', ' : '', h('code', {}, name), ` (${what})`]) : TEXT.noPanels),
    ),
  ),
);

// ---- the live example and its message log ----------------------------------------------------
const frame = document.getElementById('live-frame');
const lastAnswer = document.getElementById('last-answer');
frame.src = widgetUrl({ widget: 'exercise', exercise: firstExercise, hide: [] });
const log = createMessageLog(document.getElementById('message-log'), frame, {
  onAnswered(data) {
    lastAnswer.textContent = TEXT.lastScore({ score: Number(data.score), maxScore: Number(data.maxScore), exercise: String(data.exercise).slice(0, 80) });
  },
});
document.getElementById('clear-log').addEventListener('click', () => log.clear());

// ---- the embed builder -----------------------------------------------------------------------
const widgetSelect = document.getElementById('builder-widget');
const exerciseField = document.getElementById('builder-exercise-field');
const exerciseSelect = document.getElementById('builder-exercise');
const hideBox = document.getElementById('builder-hide');
const heightInput = document.getElementById('builder-height');
const urlLink = document.getElementById('builder-url');
const previewNote = document.getElementById('builder-preview-note');

replaceChildren(widgetSelect, WIDGETS.map((w) => h('option', { value: w.id }, w.label)));
if (index.length) replaceChildren(exerciseSelect, index.map((e) => h('option', { value: e.id }, e.title)));
else replaceChildren(exerciseSelect, h('option', { value: '' }, TEXT.noExercises));

function currentChoice() {
  const widget = widgetSelect.value;
  const hide = [...hideBox.querySelectorAll('input[type="checkbox"]:checked')].map((c) => c.value);
  const height = Math.min(4000, Math.max(200, Number.parseInt(heightInput.value, 10) || widgetById(widget).height));
  return { widget, exercise: exerciseSelect.value, hide, height };
}

function currentTitle(choice) {
  const spec = widgetById(choice.widget);
  const exercise = spec.id === 'exercise' ? index.find((e) => e.id === choice.exercise)?.title : '';
  return TEXT.frameTitle(spec.label, exercise);
}

function renderHideSwitches() {
  const spec = widgetById(widgetSelect.value);
  replaceChildren(
    hideBox,
    h('legend', {}, TEXT.panelsOf(spec.label)),
    spec.panels.length
      ? spec.panels.map(([name, what]) =>
          h('div', { class: 'check' }, h('input', { type: 'checkbox', id: `hide-${name}`, value: name }), h('label', { for: `hide-${name}` }, h('code', {}, name), ` — ${what}`)),
        )
      : h('p', {}, TEXT.noPanels),
  );
  exerciseField.hidden = spec.id !== 'exercise';
  heightInput.value = String(spec.height);
}

const builderCopy = createCopyControl({
  label: TEXT.copyEmbed,
  getText: () => {
    const choice = currentChoice();
    return embedCode(widgetUrl(choice), currentTitle(choice), choice.height);
  },
  textareaLabel: TEXT.embedArea,
  showText: true,
});
document.getElementById('builder-output').append(builderCopy.element);

function update() {
  const choice = currentChoice();
  const url = widgetUrl(choice);
  urlLink.href = url;
  urlLink.textContent = url;
  builderCopy.refresh();
  previewNote.textContent = '';
}

widgetSelect.addEventListener('change', () => {
  renderHideSwitches();
  update();
});
for (const control of [exerciseSelect, heightInput]) control.addEventListener('input', update);
hideBox.addEventListener('change', update);
document.getElementById('builder-form').addEventListener('submit', (event) => event.preventDefault());
document.getElementById('builder-preview').addEventListener('click', () => {
  const choice = currentChoice();
  log.clear();
  lastAnswer.textContent = '';
  frame.title = currentTitle(choice);
  frame.height = String(choice.height);
  frame.src = widgetUrl(choice);
  previewNote.textContent = TEXT.previewed;
});

renderHideSwitches();
update();
document.body.dataset.state = 'ready';
