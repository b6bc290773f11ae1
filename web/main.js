// main.js — the home page (index.html): what masklab is, with a live batch from the core on the
// first screen; the find-the-bug exercises with the learner's progress and level/topic filters
// (kept in the URL); then a card for every lab and way in (from shared/site-pages.js).
//
// The page renders its lists at once; only the demo waits for the wasm core. Not here: the demo
// itself (home/core-demo.js), the list (home/exercise-list.js) or the cards (home/tool-cards.js).

import { exerciseIndex } from './exercise/catalog.js';
import { topicDescriptions } from './exercise/topics.js';
import { initPage } from './shared/page.js';
import { loadProgress } from './shared/store.js';
import { defineState } from './shared/url-state.js';
import { painted } from './shared/later.js';
import { showUrlNote } from './shared/url-note.js';
import { startCoreDemo } from './home/core-demo.js';
import { renderExerciseList, unknownTopicNotes } from './home/exercise-list.js';
import { renderToolCards } from './home/tool-cards.js';
import './home/home.css';

const FILTERS = defineState({
  level: { type: 'list', item: /^(beginner|intermediate|advanced)$/, maxItems: 3, default: [] },
  tag: { type: 'list', item: /^[a-z0-9]+(-[a-z0-9]+)*$/, maxItems: 40, default: [] },
}, { reportUnknown: true });

initPage({ widget: 'home' });
startCoreDemo(); // the core loads while the rest is built
await painted(); // the first screen's HTML is painted before the list is built
const index = exerciseIndex();
if (index[0]) document.getElementById('start-exercise').href = `./exercise.html?ex=${encodeURIComponent(index[0].id)}`;
const { state, problems } = FILTERS.read();
showUrlNote(document.getElementById('url-note'), [...problems.map((p) => p.message), ...unknownTopicNotes(index, state.tag)]);
renderExerciseList(document.getElementById('exercise-list'), index, loadProgress(), {
  filters: state,
  onFilters: (filters) => FILTERS.write(filters),
  topics: topicDescriptions(),
});
renderToolCards(document.getElementById('tool-cards'));
