// xapi.js — an exercise's result as an xAPI statement, the format learning record stores and
// LMSs read (xAPI 1.0.3: actor, verb, object, result, timestamp). The embedded page posts it to
// the host next to `answered` (embed.js: { type: 'xapi', statement }); the host adds its learner
// and forwards it to its LRS.
//
//   const statement = xapiStatement('answered', {
//     activityUrl: 'https://host.org/masklab/exercise.html?ex=double-shift', title: 'The shift, twice',
//     score: 2, maxScore: 3, solutionShown: false, attempt: 1, marked: [4, 9],
//   });
//
// actor is a placeholder (masklab knows no learner; the host replaces it). Verb ids are ADL's
// (http://adlnet.gov/expapi/verbs/answered, …/completed). The object id is the exercise's page
// URL without the learner's state. result.score has scaled (raw / max), raw, min 0, max;
// success = every part found with nothing wrong, and the solution not shown first; completion =
// the learner checked an answer. Extensions (IRIs on this site) carry solution_shown and attempt.

export const XAPI_VERBS = {
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
};

export const XAPI_ACTIVITY_TYPE = 'http://adlnet.gov/expapi/activities/cmi.interaction';

// Who: masklab does not know; the host page (or its LMS) puts its learner here.
export const XAPI_ACTOR_PLACEHOLDER = Object.freeze({ objectType: 'Agent', account: { homePage: 'urn:masklab:host', name: 'anonymous' } });

/** The IRI of one of masklab's result extensions, on the site the page is served from. */
export function extensionIri(name, base = globalThis.location?.href ?? 'https://masklab.invalid/') {
  return new URL(`./xapi/${name}`, base).href;
}

/** An exercise's address without the learner's state: the same for every learner and attempt. */
export function activityUrl(exerciseId, base = globalThis.location?.href ?? 'https://masklab.invalid/') {
  const url = new URL('./exercise.html', base);
  url.search = new URLSearchParams({ ex: exerciseId }).toString();
  return url.href;
}

export function xapiStatement(verb, { activityUrl: id, title, score, maxScore, solutionShown, attempt, marked = [], base }) {
  const raw = score;
  return {
    actor: XAPI_ACTOR_PLACEHOLDER,
    verb: { id: XAPI_VERBS[verb], display: { 'en-US': verb } },
    object: {
      objectType: 'Activity',
      id,
      definition: { name: { 'en-US': title }, type: XAPI_ACTIVITY_TYPE, interactionType: 'other' },
    },
    result: {
      score: { scaled: maxScore > 0 ? raw / maxScore : 0, raw, min: 0, max: maxScore },
      success: raw === maxScore && !solutionShown,
      completion: true,
      // The marked word indices, in xAPI's list format ("[,]" between items).
      response: marked.join('[,]'),
      extensions: {
        [extensionIri('solution_shown', base)]: Boolean(solutionShown),
        [extensionIri('attempt', base)]: attempt,
      },
    },
    timestamp: new Date().toISOString(),
  };
}
