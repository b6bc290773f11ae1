// Vite plugin: uPlot creates an Intl.NumberFormat and an Intl.DateTimeFormat when its module is
// evaluated, for number labels and its time-zone helper. The first Intl object a page makes loads
// the browser's locale data: 35–45 ms of main-thread time on our 2-core machines, before the Train
// page's first paint (its charts' module is imported with the page) and again for the time zone.
// This rewrites the two statements so each object is made the first time it is used. Our charts
// format their own axes (web/train/curves.js, web/dilution/plot.js) and use no time scale, so the
// pages never make them.
//
// The rewrite matches the exact source of the uPlot version in package.json. If an upgrade changes
// either statement, the build fails and names it, rather than quietly shipping the eager version.

const UPLOT_MODULE = /[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/;

const REWRITES = [
  {
    what: 'the number formatter',
    eager: "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    lazy: "let numFormatter = null;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  },
  {
    what: 'the local time zone',
    eager: 'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    lazy: 'let localTz = null;\nconst localTimeZone = () => (localTz ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
  },
  {
    what: 'the local time zone’s one use',
    eager: 'else if (tz == localTz)',
    lazy: 'else if (tz == localTimeZone())',
  },
];

/** The uPlot module's source with its Intl objects made on first use; throws if a statement moved. */
export function makeUplotIntlLazy(code) {
  let out = code.replaceAll('\r\n', '\n');
  for (const { what, eager, lazy } of REWRITES) {
    const count = out.split(eager).length - 1;
    if (count !== 1) {
      throw new Error(`scripts/vite/uplot-lazy-intl.mjs: expected ${what} once in uPlot's module, found it ${count} times (has uplot been upgraded?): ${JSON.stringify(eager)}`);
    }
    out = out.replace(eager, lazy);
  }
  return out;
}

export function uplotLazyIntl() {
  return {
    name: 'masklab-uplot-lazy-intl',
    transform(code, id) {
      if (!UPLOT_MODULE.test(id.split('?')[0])) return null;
      return { code: makeUplotIntlLazy(code), map: null };
    },
  };
}
