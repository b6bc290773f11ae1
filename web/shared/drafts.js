// drafts.js — answers a learner types, kept for the visit (sessionStorage), so a reload or the
// next step never loses them. Nothing is sent anywhere; closing the tab forgets them.
//
//   saveDraft('masklab.draft.double-shift.0', text);   readDraft('masklab.draft.double-shift.0')
//
// Storage can be blocked (private modes, some embeds): then a draft lives in its text box only.

const MAX_LENGTH = 5000;

export function readDraft(key) {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/** Saves `text` under `key`; an empty text removes the draft. */
export function saveDraft(key, text) {
  try {
    if (text) sessionStorage.setItem(key, text.slice(0, MAX_LENGTH));
    else sessionStorage.removeItem(key);
  } catch {
    /* storage blocked: the draft lives in its text box only */
  }
}
