// early-start.js — the Chat masks page's first tokenizer load and analysis, started by a tiny
// entry script (boot.js) before the page's own code has even downloaded: the tokenizer's download,
// build and the default conversation's analysis are most of a first visit, and they run in the
// worker while the rest of the page loads. main.js picks up the same client and the pending
// analysis (this module is shared by both entries, so there is one worker).
//
//   const { client, early } = startEarly();   // early: { key, promise } | null
//
// Links that name a pasted template or an exercise, or carry a packed conversation or packed
// template arguments, change what is analysed: for them only the tokenizer load starts early.

import { CHAT_STATE, conversationOf, lineArgumentsOf, policiesOf } from './chat-state.js';
import { createFamilyClient } from './family-client.js';
import { familyById } from './families.js';

let started = null;

/**
 * The analysis options the page uses for a state: `template` a pasted template, `promptLength`
 * and `lineKwargs` a pasted line's split and template arguments (null: none).
 */
export function optionsFor(state, { template = null, promptLength = null, lineKwargs = null } = {}) {
  const family = familyById(state.f);
  const eosChoice = family.eosChoices[state.eos];
  const kwargs = lineKwargs ? { ...family.templateKwargs, ...lineKwargs } : null;
  return { addSpecialTokens: state.ast, eosToken: state.eos > 0 && eosChoice ? eosChoice.token : null, template, promptLength, kwargs };
}

export function startEarly() {
  if (started) return started;
  const client = createFamilyClient({ base: document.baseURI });
  const { state } = CHAT_STATE.read();
  let early = null;
  client.load(state.f).catch(() => {}); // the page reports load errors itself
  if (!state.tpl && !state.ex && !conversationOf(state).packed && !lineArgumentsOf(state).packed) {
    const { messages, promptLength } = conversationOf(state);
    const options = optionsFor(state, { promptLength, lineKwargs: lineArgumentsOf(state).kwargs });
    const request = [state.f, messages, options, policiesOf(state, familyById(state.f))];
    early = { key: JSON.stringify(request), promise: client.analyse(...request) };
    early.promise.catch(() => {});
  }
  started = { client, early };
  return started;
}
