// store.js — the learner's progress in localStorage: attempts, best scores, practice history.
//
// Everything read back is checked: a value from an older version, another tab, a browser
// extension or a hand edit is dropped silently and the page starts fresh. Storage may be
// unavailable (private mode, iframes with blocked storage): then progress lives for the visit.

const KEY = 'masklab.progress.v1';
const MAX_HISTORY = 200;

let memory = null; // fallback when localStorage throws

function empty() {
  return { exercises: {}, practice: [] };
}

function isCount(x) {
  return Number.isInteger(x) && x >= 0 && x < 1e6;
}

function clean(raw) {
  const out = empty();
  if (!raw || typeof raw !== 'object') return out;
  if (raw.exercises && typeof raw.exercises === 'object') {
    for (const [id, rec] of Object.entries(raw.exercises)) {
      if (!/^[a-z0-9-]{1,80}$/.test(id) || !rec || typeof rec !== 'object') continue;
      if (!isCount(rec.attempts) || !isCount(rec.best) || !isCount(rec.max) || rec.best > rec.max) continue;
      out.exercises[id] = { attempts: rec.attempts, best: rec.best, max: rec.max, solved: rec.best === rec.max && rec.max > 0 };
    }
  }
  if (Array.isArray(raw.practice)) {
    for (const s of raw.practice.slice(-MAX_HISTORY)) {
      if (!s || typeof s !== 'object' || typeof s.when !== 'string' || !Array.isArray(s.items)) continue;
      const items = s.items
        .filter((i) => i && typeof i.id === 'string' && /^[a-z0-9-]{1,80}$/.test(i.id) && isCount(i.score) && isCount(i.max))
        .map((i) => ({
          id: i.id,
          score: i.score,
          max: i.max,
          // practice self-grades as letters (g = got it, p = partly, m = missed, - = not graded)
          grades: typeof i.grades === 'string' && /^[gpm-]{0,10}$/.test(i.grades) ? i.grades : '',
          status: ['done', 'partial', 'not-started'].includes(i.status) ? i.status : 'done',
        }));
      out.practice.push({ when: s.when.slice(0, 40), seed: String(s.seed ?? '').slice(0, 40), seconds: isCount(s.seconds) ? s.seconds : null, items });
    }
  }
  return out;
}

export function loadProgress() {
  if (memory) return clean(memory);
  try {
    return clean(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
  } catch {
    return empty();
  }
}

function save(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    memory = progress;
  }
}

// Records one checked attempt of an exercise; returns the updated record.
export function recordAttempt(id, score, max) {
  const progress = loadProgress();
  const prev = progress.exercises[id] ?? { attempts: 0, best: 0, max };
  const rec = { attempts: prev.attempts + 1, best: Math.max(prev.max === max ? prev.best : 0, score), max };
  rec.solved = rec.best === rec.max && rec.max > 0;
  progress.exercises[id] = rec;
  save(progress);
  return rec;
}

export function recordPractice(session) {
  const progress = loadProgress();
  progress.practice.push(session);
  progress.practice = progress.practice.slice(-MAX_HISTORY);
  save(progress);
}

export function clearProgress() {
  memory = null;
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}
