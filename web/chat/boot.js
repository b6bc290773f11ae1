// boot.js — the Chat masks page's entry: starts the tokenizer worker (early-start.js), then loads
// the page's own code (main.js) while the worker downloads and builds the tokenizer. A small first
// chunk, so the worker starts before the rest of the page has downloaded. The page's styles come
// with this entry, not with main.js, so the build writes them into the HTML: the first paint is
// already laid out as the finished page, and nothing jumps when main.js arrives.
import { startEarly } from './early-start.js';
import './chat.css';

startEarly();
import('./main.js');
