// main.js — the home page (index.html): what masklab teaches, the find-the-bug exercises with the
// learner's progress, the labs, the ways in for course authors and interview practice, and a
// small live demo of the core.
//
// The page renders its lists at once; only the demo waits for the wasm core. Not here: the demo
// itself (home/core-demo.js) or the list's layout (home/exercise-list.js).

import { exerciseIndex } from './exercise/catalog.js';
import { initPage } from './shared/page.js';
import { loadProgress } from './shared/store.js';
import { startCoreDemo } from './home/core-demo.js';
import { renderExerciseList } from './home/exercise-list.js';
import './home/home.css';

initPage({ widget: 'home' });
renderExerciseList(document.getElementById('exercise-list'), exerciseIndex(), loadProgress());
startCoreDemo();
