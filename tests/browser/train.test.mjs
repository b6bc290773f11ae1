// The Train it page (train.html) in headless Chromium: trained with the keyboard only, the curves
// fill in while the runs train, pause really stops both runs and resume goes on, the main thread
// runs no long task (> 50 ms) while training, the figures are the native CLI's to the last
// digits, the settings live in the URL, an embed posts `trained`, and axe finds nothing.
//
// Long tasks: a PerformanceObserver lists every main-thread task over 50 ms of wall time. On a
// machine shared with other jobs a 5 ms task can take 300 ms of wall time while the thread waits
// for a core, so each long task is checked against a Chromium trace of the same period: the CPU
// time the main thread spent in it (the trace's thread duration) must stay under 50 ms. On a
// quiet machine the observer reports none at all.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';
import { runCli } from '../node/helpers.mjs';

const suite = useSiteAndBrowser();

// Records long tasks from the moment the page starts; the test reads those after Train.
const LONG_TASKS = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
};

// Collects the renderer main thread's tasks (RunTask: start, wall and CPU time in ms, on the
// page's performance.now() clock) while `during` runs, through the DevTools protocol.
async function mainThreadTasks(page, during) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  // A mark at a known performance.now() ties the trace's clock to the page's.
  const markedAt = await page.evaluate(() => {
    performance.mark('masklab-trace-origin');
    return performance.getEntriesByName('masklab-trace-origin').at(-1).startTime;
  });
  const result = await during();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  // The page's main thread is the CrRendererMain that ran the page's own script (not the workers').
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const ours = events.find((e) => mains.has(`${e.pid}:${e.tid}`) && e.name === 'FunctionCall' && /\/assets\/train-(?!worker)[^/]*\.js/.test(e.args?.data?.url ?? ''));
  assert.ok(ours, 'the trace shows the page script running on a main thread');
  // Trace timestamps are µs on the monotonic clock; the mark maps them to performance.now().
  const mark = events.find((e) => e.name === 'masklab-trace-origin');
  assert.ok(mark, 'the trace holds the clock mark');
  const origin = mark.ts - markedAt * 1000;
  const tasks = events
    .filter((e) => e.pid === ours.pid && e.tid === ours.tid && e.ph === 'X' && e.name === 'RunTask')
    .map((e) => ({ start: (e.ts - origin) / 1000, wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 }));
  return { result, tasks };
}

async function openTrain(path) {
  const opened = await suite.open(path, { prepare: (page) => page.addInitScript(LONG_TASKS) });
  await opened.page.waitForSelector('body[data-state="ready"]');
  return opened;
}

const stepsShown = (page) => page.$eval('#progress', (p) => Number(p.value));
const figure = async (page, key) => Number(await page.getAttribute(`[data-figure="${key}"] dd`, 'data-value'));

test('keyboard only: choose a bug, train, pause, resume; curves grow, no long tasks, CLI numbers', async () => {
  const { page, problems } = await openTrain('train.html?steps=240&every=20');

  // Tab to the bug menu, pick "pads trained" (the second entry) with the arrow key.
  await page.keyboard.press('Tab'); // skip link
  let focused = '';
  for (let i = 0; i < 30 && focused !== 'bug'; i += 1) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement.id);
  }
  assert.equal(focused, 'bug', 'the bug menu is reachable by Tab');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('bug') === 'pads_trained');
  assert.match(await page.textContent('#bug-about'), /labels = input_ids/);

  // On to the Train button, and press it with Enter.
  for (let i = 0; i < 10 && focused !== 'train'; i += 1) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement.id);
  }
  assert.equal(focused, 'train');
  const before = await page.evaluate(() => performance.now());
  const { tasks, result: rowsEarly } = await mainThreadTasks(page, async () => {
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('#progress').value) >= 40, null, { timeout: 60_000 });
    const early = await page.locator('.plot-table tbody tr').count();
    assert.ok(early >= 1, 'the curves have points while training');

    // Train is disabled while training, so focus moved on to Pause; Space pauses both runs.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'pause');
    await page.keyboard.press('Space');
    await page.waitForSelector('body[data-train="paused"]');
    assert.equal(await page.textContent('#pause'), 'Resume');
    await page.waitForTimeout(300); // a chunk that was running when pause arrived may still land
    const paused = await stepsShown(page);
    await page.waitForTimeout(700);
    assert.equal(await stepsShown(page), paused, 'no step while paused');
    assert.match(await page.textContent('#status'), new RegExp(`Paused at step ${paused}`));
    assert.ok(await page.$eval('#settings', (f) => f.disabled), 'settings are locked until reset');

    await page.keyboard.press('Space'); // Resume
    await page.waitForSelector('body[data-train="done"], body[data-train="error"]', { timeout: 120_000 });
    assert.equal(await page.getAttribute('body', 'data-train'), 'done', await page.textContent('#status'));
    assert.equal(await page.evaluate(() => document.activeElement.id), 'train', 'focus back on Train again');
    return early;
  });
  assert.equal(await stepsShown(page), 240);
  assert.match(await page.textContent('#step-count'), /Step 240 of 240/);
  assert.match(await page.textContent('#speed'), /\d+ steps\/s per run/);
  const rowsLate = await page.locator('.plot-table tbody tr').count();
  assert.equal(rowsLate, 12, 'one row per logged step: 20, 40, …, 240');
  assert.ok(rowsLate > rowsEarly, 'the plot kept updating');

  // No long task on the main thread from the moment Train was pressed: every task the observer
  // saw take over 50 ms spent under 50 ms of CPU on the main thread (the rest was waiting for a
  // core), and the busiest task of the whole run stays under 50 ms of CPU.
  const longTasks = await page.evaluate((t0) => window.__longTasks.filter((t) => t.start >= t0), before);
  const during = tasks.filter((t) => t.start >= before);
  assert.ok(during.length > 100, `the trace covers the run (${during.length} tasks)`);
  for (const long of longTasks) {
    const match = during.filter((t) => Math.abs(t.start - long.start) < 5).sort((a, b) => b.wall - a.wall)[0];
    if (!match) console.log(JSON.stringify({ long, near: during.filter((t) => Math.abs(t.start - long.start) < 200 && t.wall > 5) }));
    assert.ok(match, `the trace has the observer's long task at ${long.start} ms`);
    assert.ok(match.cpu < 50, `a ${long.duration} ms task used ${match.cpu.toFixed(1)} ms of main-thread CPU`);
  }
  const busiest = Math.max(...during.map((t) => t.cpu));
  assert.ok(busiest < 50, `the busiest task used ${busiest.toFixed(1)} ms of CPU`);
  if (longTasks.length) console.log(`${longTasks.length} long task(s) by wall clock, none by CPU (busiest ${busiest.toFixed(1)} ms): a loaded machine`);

  // The page shows the native CLI's numbers for the same settings.
  const cli = runCli('train', { bug: 'pads_trained', steps: 240, seed: 0, lr: 0.003, model: 'small', mix: 'uniform', log_every: 20 });
  assert.equal(cli.status, 0, cli.stderr);
  const final = JSON.parse(cli.stdout.trim().split('\n').at(-1)).final;
  const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
  assert.ok(close(await figure(page, 'eval-buggy'), final.buggy.eval_loss));
  assert.ok(close(await figure(page, 'eval-fixed'), final.fixed.eval_loss));
  assert.ok(close(await figure(page, 'eos-fixed'), final.fixed.eos_prob_at_end));
  assert.ok(close(await figure(page, 'reported-buggy'), final.buggy.train_loss));
  assert.ok(close(await figure(page, 'real-buggy'), final.buggy.real_loss));
  // pads_trained: the reported loss sits below the loss over real targets.
  assert.ok((await figure(page, 'reported-buggy')) < (await figure(page, 'real-buggy')));

  // Samples: the held-out prompts, with the core's verdicts; the batches show the pads trained.
  assert.equal(await page.locator('.samples .sample').count(), 4);
  assert.equal(await page.locator('.boundary tbody tr').count(), 4);
  assert.ok((await page.locator('.batch-table[data-run="buggy"] td.differs').count()) > 0, 'pad labels differ from the fixed batch');
  assert.deepEqual(problems, []);
  await page.close();
});

test('pad_eos_masked (the default): the buggy model never stops, the fixed one does', async () => {
  const { page, problems } = await openTrain('train.html?autorun=1');
  await page.waitForSelector('body[data-train="done"], body[data-train="error"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('body', 'data-train'), 'done', await page.textContent('#status'));
  assert.ok((await figure(page, 'eos-buggy')) < 0.03, 'P(<eos>) pushed below where it started (about 1/V)');
  assert.ok((await figure(page, 'eos-fixed')) > 0.5);
  const buggyVerdicts = await page.locator('.sample-run.buggy .verdict').allTextContents();
  const fixedVerdicts = await page.locator('.sample-run.fixed .verdict').allTextContents();
  assert.equal(buggyVerdicts.length, 4);
  for (const v of buggyVerdicts) assert.match(v, /ran on to the limit/);
  for (const v of fixedVerdicts) assert.match(v, /matches/);
  assert.deepEqual(problems, []);
  await page.close();
});

// 1,200 steps take this run's training loss down through 0.0012 (near step 750). The loss axes
// start at 0.8 × the lowest loss, so the range then starts just below 0.001, and uPlot's own log
// splits looped until "Invalid array length": the training-loss chart froze at step ~750 while
// the others went on (web/train/log-axis.js). The error is the page error this test sees.
test('a long run whose loss falls under 0.001: the charts draw it without a page error', async () => {
  const { page, problems } = await suite.open('train.html?steps=1200&autorun=1');
  await page.waitForSelector('body[data-train="done"], body[data-train="error"]', { timeout: 180_000 });
  assert.equal(await page.getAttribute('body', 'data-train'), 'done', await page.textContent('#status'));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const logged = await page.locator('#curves tbody tr').count();
  assert.equal(logged, 120, 'a row per logged step (every 10 of 1,200)');
  const lowest = Math.min(...(await page.locator('#curves tbody tr td:nth-child(4)').allTextContents()).map(Number));
  assert.ok(lowest < 0.001, `the fixed run's loss went under 0.001 (lowest ${lowest})`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('reset clears the run; the settings survive a reload; bad URL values are explained', async () => {
  const { page, problems } = await openTrain('train.html?bug=left_pad_arange_positions&steps=60&seed=3&model=tiny&mix=skewed');
  assert.equal(await page.inputValue('#bug'), 'left_pad_arange_positions');
  assert.equal(await page.inputValue('#steps'), '60');
  assert.equal(await page.inputValue('#seed'), '3');
  assert.equal(await page.inputValue('#model'), 'tiny');
  assert.equal(await page.inputValue('#mix'), 'skewed');
  // Before the first run: three charts with their axes (uPlot draws the ticks on a canvas) and a
  // line saying how to fill them, not three blank boxes.
  assert.equal(await page.locator('#curves .uplot canvas').count(), 3);
  assert.ok(await page.isVisible('.plot-empty'));
  assert.match(await page.textContent('.plot-empty'), /Press Train: the curves fill in/);
  // The empty axes end at the Steps setting, and follow a change of it before the first run.
  const axisEnds = () => page.$$eval('#curves [data-steps]', (boxes) => boxes.map((box) => box.dataset.steps));
  const setSteps = (value) =>
    page.$eval('#steps', (input, v) => {
      input.value = v;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, value);
  assert.deepEqual(await axisEnds(), ['60', '60', '60']);
  await setSteps('120');
  assert.deepEqual(await axisEnds(), ['120', '120', '120']);
  assert.match(await page.textContent('#step-count'), /Step 0 of 120/);
  assert.ok(await page.isVisible('.plot-empty'), 'still empty axes, still the hint');
  await setSteps('60');
  assert.deepEqual(await axisEnds(), ['60', '60', '60']);
  await page.click('#train');
  await page.waitForFunction(() => Number(document.querySelector('#progress').value) > 0);
  assert.ok(await page.isHidden('.plot-empty'), 'the hint goes once training starts');
  await page.click('#reset');
  await page.waitForSelector('body[data-train="idle"]');
  assert.equal(await stepsShown(page), 0);
  assert.equal(await page.locator('.plot-table tbody tr').count(), 0);
  assert.equal(await page.$eval('#settings', (f) => f.disabled), false);

  // A typed number out of range is refused next to the field, not trained.
  await page.click('.more-settings summary');
  await page.fill('#steps', '5');
  await page.dispatchEvent('#steps', 'change');
  assert.match(await page.textContent('#settings-error'), /Steps must be a whole number from 10 to 3000/);
  assert.equal(await page.getAttribute('#steps', 'aria-invalid'), 'true');
  assert.equal(new URL(page.url()).searchParams.get('steps'), '60', 'the bad value is not written');

  const { page: bad, problems: badProblems } = await openTrain('train.html?bug=nope&lr=7');
  assert.match(await bad.textContent('#url-note'), /bug=nope is not one of/);
  assert.match(await bad.textContent('#url-note'), /lr=7 is above 0.1/);
  assert.equal(await bad.inputValue('#bug'), 'pad_eos_masked');
  assert.deepEqual([...problems, ...badProblems], []);
  await bad.close();
  await page.close();
});

test('embedded with autorun: the host receives ready, then trained with both runs’ final figures', async () => {
  // The course authors' bare host page, pointed at the Train page instead of an exercise.
  const { page, problems } = await suite.open('embed-example.html');
  await page.waitForSelector('body[data-state="ready"]');
  await page.evaluate((src) => {
    window.__messages = [];
    const frame = document.getElementById('host-frame');
    window.addEventListener('message', (event) => {
      if (event.source === frame.contentWindow) window.__messages.push(event.data);
    });
    frame.src = src;
  }, suite.url('train.html?bug=prompt_trained&steps=30&every=10&autorun=1&embed=1'));
  await page.waitForFunction(() => window.__messages.some((m) => m.type === 'trained'), null, { timeout: 120_000 });
  const messages = await page.evaluate(() => window.__messages);
  assert.equal(messages[0].type, 'ready');
  const trained = messages.filter((m) => m.type === 'trained');
  assert.equal(trained.length, 1);
  const [t] = trained;
  assert.equal(t.source, 'masklab');
  assert.equal(t.widget, 'train');
  assert.equal(t.bug, 'prompt_trained');
  assert.equal(t.settings.steps, 30);
  for (const run of ['buggy', 'fixed']) {
    assert.equal(t.final[run].step, 30);
    for (const key of ['train_loss', 'real_loss', 'eval_loss', 'eos_prob_at_end']) assert.ok(Number.isFinite(t.final[run][key]), `${run}.${key}`);
  }
  // Without the completion mask the random prompt words are scored: reported > real.
  assert.ok(t.final.buggy.train_loss > t.final.buggy.real_loss);
  // The host's own log lists the message too.
  await page.waitForSelector('#message-log li[data-type="trained"][data-widget="train"]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('an exercise whose bug the page runs links to it after Check, and the Train page links back', async () => {
  const { page, problems } = await suite.open('exercise.html?ex=pad-eos-mask-by-id');
  await page.waitForSelector('body[data-state="ready"]');
  await page.click('#check');
  await page.waitForSelector('#train-panel:not([hidden]) #train-link');
  const href = await page.getAttribute('#train-link', 'href');
  assert.equal(new URL(href, page.url()).searchParams.get('bug'), 'pad_eos_masked');
  await page.click('#train-link');
  await page.waitForSelector('body[data-state="ready"] #bug-about');
  assert.equal(await page.inputValue('#bug'), 'pad_eos_masked');
  const back = await page.$$eval('#bug-about .exercise-links a', (links) => links.map((a) => new URL(a.href).searchParams.get('ex')));
  assert.ok(back.includes('pad-eos-mask-by-id'), back.join(', '));

  // An exercise whose bug the page cannot run shows no such panel.
  await page.goto(suite.url('exercise.html?ex=double-shift'));
  await page.waitForSelector('body[data-state="ready"]');
  await page.click('#check');
  await page.waitForSelector('#after-check:not([hidden])');
  assert.equal(await page.locator('#train-panel').isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 320 px the trained page does not scroll sideways', async () => {
  const { page } = await openTrain('train.html?steps=20&autorun=1');
  await page.setViewportSize({ width: 320, height: 700 });
  await page.waitForSelector('body[data-train="done"]', { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 320);
  await page.close();
});

test('axe-core finds no accessibility violations after training, in light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const violations = await scanner.scan(suite.url('train.html?steps=20&autorun=1'), {
        colorScheme,
        prepare: async (p) => {
          await p.waitForSelector('body[data-train="done"]', { timeout: 120_000 });
          await p.click('.more-settings summary');
          await p.click('.plot-table summary');
        },
      });
      assert.deepEqual(violations, [], colorScheme);
    }
  });
});

test('no console errors, page errors or failed requests on any page opened here', () => {
  assert.deepEqual(suite.allProblems(), []);
});
