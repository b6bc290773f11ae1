// The JavaScript face of the chat module: the core's `chat` command (labels, reasons and warnings
// for a conversation a real template rendered and a real tokenizer split) and `collate` (the
// chat page pads its labelled conversations into a batch). Kept out of the core module so the
// other pages never download the chat code.
//
//   import { loadChat } from './core/chat.js';
//   const chat = await loadChat();                 // node: loadChat({ wasmBinary })
//   const answer = chat.chat(request);             // or { error: { field, message } }
//
// The same face as masklab.js's (plain objects in and out, errors as answers, runJson, limits,
// benchRun, memoryBytes); see there.

import createMasklabChat from '../generated/masklab_chat.mjs';
import { Boundary, commandFace, moduleLoader } from './boundary.js';

/** The commands of the chat module (cpp/core/commands_chat.cpp). */
export const CHAT_COMMANDS = Object.freeze(['chat', 'collate']);

/** Loads the chat module once (as loadCore does) and returns its frozen API. */
export const loadChat = moduleLoader(createMasklabChat, (module) => commandFace(new Boundary(module), CHAT_COMMANDS), 'chat module');
