// family-source.js — what the doctor borrows from the Chat masks page to name tokens: its family
// list and its tokenizer client, as one lazily imported module of the doctor's own.
//
// token-names.js imports this file, not the chat modules themselves: those two are shared chunks
// of the chat page, and a dynamic import of a module inside a shared chunk makes the bundler add
// a re-export file for it, so the doctor asked for four scripts (two of them only re-exports)
// where two carry the code. Through this module it is this one plus the chunk that holds the
// code (today's build puts families.js and family-client.js in one chunk): two requests.

export { FAMILIES } from '../chat/families.js';
export { createFamilyClient } from '../chat/family-client.js';
