// embed-example.js — the bare host page (embed-example.html): one exercise in an iframe and the
// list of messages it sends, exactly as a course page would receive them. The exercise comes
// from ?ex= (any compiled exercise id; the first by default), passed on to the frame.
// Not here: the protocol (shared/embed.js) or the log (message-log.js).

import { initPage } from '../shared/page.js';
import { EXERCISE_ID, exerciseIndex } from '../exercise/catalog.js';
import { createMessageLog } from './message-log.js';
import './authors.css';

const TEXT = {
  lastScore: (d) => `Last answer received: ${d.score} / ${d.maxScore} on “${d.exercise}”.`,
};

// A stand-in for an author's page: no masklab header, navigation or footer around it.
initPage({ widget: 'authors', bare: true });

const requested = new URLSearchParams(location.search).get('ex') ?? '';
const index = exerciseIndex();
const exercise = EXERCISE_ID.test(requested) && index.some((e) => e.id === requested) ? requested : (index[0]?.id ?? '');

const frame = document.getElementById('host-frame');
const lastAnswer = document.getElementById('last-answer');
createMessageLog(document.getElementById('message-log'), frame, {
  onAnswered(data) {
    lastAnswer.textContent = TEXT.lastScore({ score: Number(data.score), maxScore: Number(data.maxScore), exercise: String(data.exercise).slice(0, 80) });
  },
});
const src = new URL('./exercise.html', location.href);
src.search = new URLSearchParams({ ex: exercise, embed: '1' }).toString();
frame.src = src.href;
document.body.dataset.state = 'ready';
