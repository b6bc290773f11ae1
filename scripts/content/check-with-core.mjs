// check-with-core.mjs — the prose of an exercise, checked against the core, so that every number
// in a lesson comes from a request the test suite runs.
//
//   const problems = checkWithCore(compiled, core);   // compiled = createExerciseCompiler(...).compile(...)
//
// Runs both see_it_break requests through `core.inspect` (chat exercises: the real template and
// tokenizer, then `core.chat`), evaluates every claim with
// web/shared/claims.js and reads every {{live number}}; a refused request, a claim that does not
// hold, or a live number that is missing or not a number is a problem at its place in the YAML
// file. Not here: loading the core (the caller passes it) or anything about the page.

import { evaluateClaims, readMetric } from '../../web/shared/claims.js';
import { runScenarioSide } from '../../web/chat/chat-scenario.js';
import { nodeFamily } from '../chat/node-family.mjs';

const TEXT = {
  refused: (e) => `the core refused this request: ${e.field}: ${e.message}`,
  claimFails: (details) => `claim does not hold: ${details}`,
  numberMissing: (source, metric, message) => `live number {{${source}.${metric}}}: ${message}`,
  notANumber: (source, metric, value) => `live number {{${source}.${metric}}} is ${JSON.stringify(value)}, not a number`,
};

// A chat exercise's side, rendered by its family's real template and tokenizer (the set-up cache)
// and labelled by the core's chat command; a template or tokenizer failure is an error answer.
function runChatSide(config, side, core) {
  try {
    return runScenarioSide(nodeFamily(config.family), config.conversation, config[side], core).answer;
  } catch (error) {
    return { error: { field: `see_it_break.${side}`, message: error.message } };
  }
}

/** The two responses of an exercise ({ buggy, fixed }), or null without see_it_break. */
export function runSeeItBreak(exercise, core) {
  if (!exercise.see_it_break) return null;
  if (exercise.see_it_break.kind === 'chat') {
    return { buggy: runChatSide(exercise.see_it_break, 'buggy', core), fixed: runChatSide(exercise.see_it_break, 'fixed', core) };
  }
  return {
    buggy: core.inspect(exercise.see_it_break.buggy),
    fixed: core.inspect(exercise.see_it_break.fixed),
  };
}

export function checkWithCore(compiled, core) {
  const { exercise, where } = compiled;
  const problems = [];
  if (!exercise) return problems;
  const responses = runSeeItBreak(exercise, core);
  if (!responses) return problems;
  const add = (at, message) => problems.push({ file: at.file, line: at.line, col: at.col, path: at.path, message });

  let refused = false;
  for (const side of ['buggy', 'fixed']) {
    if (responses[side].error) {
      add(where.request(side), TEXT.refused(responses[side].error));
      refused = true;
    }
  }
  if (refused) return problems;

  const options = { buggyRequest: exercise.see_it_break.buggy, fixedRequest: exercise.see_it_break.fixed };
  evaluateClaims(exercise.claims, responses.buggy, responses.fixed, options).forEach((result, i) => {
    if (!result.ok) add(where.claim(i), TEXT.claimFails(result.details));
  });

  const context = { ...responses, ...options };
  for (const n of where.numbers) {
    let value;
    try {
      value = readMetric(n.metric, n.source, context);
    } catch (error) {
      add(n, TEXT.numberMissing(n.source, n.metric, error.message));
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) add(n, TEXT.notANumber(n.source, n.metric, value));
  }
  return problems;
}
