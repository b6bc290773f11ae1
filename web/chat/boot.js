// boot.js — the Chat masks page's entry: starts the tokenizer worker (early-start.js), then loads
// the page's own code (main.js) while the worker downloads and builds the tokenizer. A small first
// chunk, so the worker starts before the rest of the page has downloaded.
import { startEarly } from './early-start.js';

startEarly();
import('./main.js');
