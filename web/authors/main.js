// authors/main.js — the course authors page (authors.html): a form that builds the one embed
// snippet (iframe + sizing script) for any exercise or lab, how to read the score, the URL
// parameters, the postMessage protocol (protocol.js) and the xAPI statements, and a live
// embedded exercise with a log of the messages it sends.
//
// Everything shown from another document (the iframe's messages) goes in as text. The snippets
// use this site's real address, computed from location, so they work when pasted. Not here: the
// protocol itself (shared/embed.js) or the message log (message-log.js).

import { h, replaceChildren } from '../shared/dom.js';
import { embedSnippet } from '../shared/embed.js';
import { frameId } from '../shared/embed-panel.js';
import { activityUrl, xapiStatement } from '../shared/xapi.js';
import { painted } from '../shared/later.js';
import { initPage } from '../shared/page.js';
import { exerciseIndex } from '../exercise/catalog.js';
import { createCopyControl } from '../shared/copy-text.js';
import { createMessageLog } from './message-log.js';
import { renderProtocol, renderXapiFields } from './protocol.js';
import { WIDGETS, widgetById } from './widgets.js';
import './authors.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  copySnippet: 'Copy this code',
  embedArea: 'Embed snippet',
  snippetArea: 'Code that reads the score',
  copyEmbed: 'Copy the snippet',
  frameTitle: (label, title) => (title ? `masklab ${label.toLowerCase()}: ${title}` : `masklab ${label.toLowerCase()}`),
  noPanels: 'This page has no panels to hide.',
  panelsOf: (label) => `Panels of the ${label.toLowerCase()}: tick one to hide it`,
  preview: 'Show this in the live example',
  previewed: 'The live example now shows this embed (scrolled to it below); its messages start a new log.',
  lastScore: (d) => `Last answer received: ${d.score} / ${d.maxScore} on “${d.exercise}”.`,
  noExercises: 'No exercises compiled',
  liveFrame: 'masklab exercise, embedded as an example',
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

// What a host page adds after the snippet to read scores: the snippet re-dispatches each checked
// message as a "masklab" event on the iframe.
function scoreCode(id) {
  return `<script>
  // After the masklab snippet: the learner's results from the frame with this id.
  document.getElementById(${JSON.stringify(id)}).addEventListener('masklab', (event) => {
    const data = event.detail;
    if (data.type === 'answered') {
      // data.exercise: its id; data.score of data.maxScore; data.solution_shown; data.attempt
      console.log(\`masklab: \${data.exercise} scored \${data.score} / \${data.maxScore}\`);
    }
    if (data.type === 'xapi') {
      // data.statement: an xAPI statement; put your learner in statement.actor, send it to your LRS
    }
  });
</script>`;
}

// ---- the live example and its message log ----------------------------------------------------
// The iframe is made here and put in its place after the first paint: even lazy and below the
// fold, an iframe in the HTML creates a frame (a document and its window) before the page can
// first paint, which cost that paint ~30 ms of the machine's time in traces.
const frame = h('iframe', { id: 'live-frame', class: 'live-frame', title: TEXT.liveFrame, width: '100%', height: '900', loading: 'lazy' });
const placeFrame = () => {
  if (!frame.isConnected) document.querySelector('.live').prepend(frame);
};
// Blank (its room kept) until the page inside has drawn itself and says "ready", as the snippet
// keeps an author's frame (shared/embed.js); shown anyway 3 s after it has loaded. Only "ready"
// shows it: when Preview points the frame elsewhere, the old page can still post a resize (its
// height changed) before the new one replaces it, from the same window; and a pending 3 s
// fallback from the old page must not show the new one half-built.
let showAnyway = 0;
const showFrame = () => {
  clearTimeout(showAnyway);
  frame.classList.remove('loading');
};
const pointFrame = (src) => {
  clearTimeout(showAnyway);
  frame.classList.add('loading');
  frame.src = src;
};
window.addEventListener('message', (event) => {
  if (event.source === frame.contentWindow && event.data?.source === 'masklab' && event.data.type === 'ready') showFrame();
});
frame.addEventListener('load', () => {
  clearTimeout(showAnyway);
  showAnyway = setTimeout(showFrame, 3000);
});
const lastAnswer = document.getElementById('last-answer');
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

// The frame id stays the same while the page is open, so a copied snippet and the score code
// shown under it agree.
const builderIds = new Map();
const builderId = (widget) => builderIds.get(widget) ?? builderIds.set(widget, frameId(widgetById(widget).page)).get(widget);
const builderCopy = createCopyControl({
  label: TEXT.copyEmbed,
  getText: () => {
    const choice = currentChoice();
    return embedSnippet(widgetUrl(choice), currentTitle(choice), choice.height, builderId(choice.widget));
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
  pointFrame(widgetUrl(choice));
  placeFrame();
  previewNote.textContent = TEXT.previewed;
  // Show it: the frame loads when in view (loading="lazy"), and the author asked to see it.
  frame.scrollIntoView({ block: 'start' });
});

renderHideSwitches();
update();

// Everything above is on the first screen (the steps and the builder). The references below it
// wait for the frame that shows that screen: built first, they were laid out (every code font
// and size looked up) before the page could first paint. They sit below the fold, so nothing the
// reader sees moves; keyboard order is the document's, and the page is ready only after them.
await painted();
placeFrame();

// ---- reading the score -----------------------------------------------------------------------
const exampleId = 'masklab-exercise-1a2b';
document.getElementById('score-code').textContent = scoreCode(exampleId);
document
  .getElementById('score-copy')
  .append(createCopyControl({ label: TEXT.copySnippet, getText: () => scoreCode(exampleId), textareaLabel: TEXT.snippetArea }).element);

// ---- the protocol and xAPI reference ---------------------------------------------------------
renderProtocol(document.getElementById('protocol-table'));
const example = index[0] ?? { id: 'pad-to-max-all-ones', title: 'The collator that grades its own padding' };
document.getElementById('xapi-example').textContent = JSON.stringify(
  xapiStatement('answered', { activityUrl: activityUrl(example.id), title: example.title, score: 2, maxScore: 3, solutionShown: false, attempt: 1, marked: [40, 47] }),
  null,
  2,
);
renderXapiFields(document.getElementById('xapi-fields'));

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

// The live example last: it loads when near the screen (loading="lazy"), and that is measured
// against the finished page, not one whose references are still empty (it was then near enough
// to load an exercise and the core on the first view). Unless Preview has already pointed it.
if (!frame.getAttribute('src')) pointFrame(widgetUrl({ widget: 'exercise', exercise: firstExercise, hide: [] }));
document.body.dataset.state = 'ready';
