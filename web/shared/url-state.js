// url-state.js — every page's state in its URL, from one typed table per page
// (the TensorFlow Playground habit: a shared link or a reload restores exactly what was on screen).
//
//   const STATE = defineState({
//     side: { type: 'enum', values: ['right', 'left'], default: 'right' },
//     pads: { type: 'int', min: 0, max: 64, default: 3 },
//   });
//   const { state, problems } = STATE.read();   // problems: [{ param, message }] for bad values
//   STATE.write(state);                          // history.replaceState, defaults left out
//
// A bad parameter never breaks a page: it falls back to the default and is reported in
// `problems`, so the page can say "URL parameter side=up is not one of right, left".
//
// Options (second argument, all optional):
//   aliases: { id: 'ex' }   another name people use for a parameter; read when the real one is
//                           absent (exercise.html?id=… works like ?ex=…)
//   reportUnknown: true     a parameter the page does not read is reported too ("URL parameter
//                           foo is not used on this page"), except the ones every page shares
//                           (SHARED_PARAMS: embed, hide), those listed in `alsoRead`, and the
//                           ones analytics add to links (utm_source, fbclid, …).

const PARSERS = {
  enum(raw, spec) {
    if (spec.values.includes(raw)) return raw;
    throw new Error(`is not one of ${spec.values.join(', ')}`);
  },
  int(raw, spec) {
    if (!/^-?\d{1,9}$/.test(raw)) throw new Error('is not a whole number');
    const n = Number(raw);
    if (spec.min !== undefined && n < spec.min) throw new Error(`is below ${spec.min}`);
    if (spec.max !== undefined && n > spec.max) throw new Error(`is above ${spec.max}`);
    return n;
  },
  number(raw, spec) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new Error('is not a number');
    if (spec.min !== undefined && n < spec.min) throw new Error(`is below ${spec.min}`);
    if (spec.max !== undefined && n > spec.max) throw new Error(`is above ${spec.max}`);
    return n;
  },
  bool(raw) {
    if (raw === '1' || raw === 'true') return true;
    if (raw === '0' || raw === 'false') return false;
    throw new Error('is not 1 or 0');
  },
  string(raw, spec) {
    if (raw.length > (spec.maxLength ?? 2000)) throw new Error('is too long');
    if (spec.pattern && !spec.pattern.test(raw)) throw new Error('has characters that are not allowed');
    return raw;
  },
  // A comma-separated list of small ints, e.g. "3,0,5" (grid toggles are pairs "b.t").
  list(raw, spec) {
    if (raw === '') return [];
    const items = raw.split(',');
    if (items.length > (spec.maxItems ?? 256)) throw new Error('has too many items');
    return items.map((item) => {
      if (!(spec.item ?? /^[\w.-]{1,40}$/).test(item)) throw new Error(`has a bad item "${item.slice(0, 20)}"`);
      return item;
    });
  },
};

const WRITERS = {
  enum: String,
  int: String,
  number: String,
  bool: (v) => (v ? '1' : '0'),
  string: String,
  list: (v) => v.join(','),
};

// Read by shared/page.js on every page, so never "unknown".
export const SHARED_PARAMS = ['embed', 'hide'];

// What analytics, advertising and link directories add to a shared link (utm_source, fbclid,
// ref, …): not settings, so never reported. A newsletter's link must not greet its readers with
// "utm_source is not used on this page".
const TRACKING_PARAM = /^(utm_\w+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|yclid|twclid|igshid|mc_cid|mc_eid|_ga|_gl|ref)$/i;

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function defineState(schema, { aliases = {}, reportUnknown = false, alsoRead = [] } = {}) {
  const params = Object.entries(schema).map(([key, spec]) => spec.param ?? key);
  return {
    schema,
    params,
    defaults() {
      return Object.fromEntries(Object.entries(schema).map(([k, spec]) => [k, structuredClone(spec.default)]));
    },
    read(search = globalThis.location?.search ?? '') {
      const params = new URLSearchParams(search);
      const state = this.defaults();
      const problems = [];
      for (const [alias, target] of Object.entries(aliases)) {
        if (params.has(alias) && !params.has(target)) params.set(target, params.get(alias));
      }
      if (reportUnknown) {
        const known = new Set([...this.params, ...SHARED_PARAMS, ...alsoRead, ...Object.keys(aliases)]);
        for (const name of new Set(params.keys())) {
          if (!known.has(name) && !TRACKING_PARAM.test(name))
            problems.push({ param: name, message: `URL parameter ${name.slice(0, 40)} is not used on this page, so it was ignored. This page reads: ${this.params.join(', ')}.` });
        }
      }
      for (const [key, spec] of Object.entries(schema)) {
        const param = spec.param ?? key;
        if (!params.has(param)) continue;
        const raw = params.get(param);
        try {
          state[key] = PARSERS[spec.type](raw, spec);
        } catch (e) {
          problems.push({ param, message: `URL parameter ${param}=${raw.slice(0, 40)} ${e.message}; using the default.` });
        }
      }
      return { state, problems };
    },
    // Query string for `state`; parameters not in the schema (embed, hide, …) are kept.
    toSearch(state, base = globalThis.location?.search ?? '') {
      const params = new URLSearchParams(base);
      for (const alias of Object.keys(aliases)) params.delete(alias); // written under its real name
      for (const [key, spec] of Object.entries(schema)) {
        const param = spec.param ?? key;
        if (same(state[key], spec.default)) params.delete(param);
        else params.set(param, WRITERS[spec.type](state[key]));
      }
      const s = params.toString();
      return s ? `?${s}` : '';
    },
    write(state) {
      const search = this.toSearch(state);
      if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
    },
  };
}
