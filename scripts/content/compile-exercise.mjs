// compile-exercise.mjs — one exercise file: validate it and turn it into the JSON the exercise
// page reads.
//
//   const compiler = createExerciseCompiler({ schema, mathStyles: createMathStyleSheet() });
//   const { exercise, problems, numbers } = compiler.compile(text, 'content/exercises/x.yaml');
//   // problems: [{ file, line, col, path, message }]; exercise is null when there is any problem.
//
// Checks, in order: YAML syntax; the JSON Schema (ajv, allErrors); what the schema cannot say:
// id = file name, every errors[]/near_misses[] text occurs exactly once in the passage and no two
// share a character or a clickable word, claim grammar (web/shared/claims.js), the requests of
// see_it_break, math and placeholders in markdown, every tag a topic of content/topics.yaml.
// Not here: reading folders, writing files, or
// running the core (build-content.mjs and check-with-core.mjs).

import Ajv2020 from 'ajv/dist/2020.js';
import { basename } from 'node:path';

import { familyById, FAMILIES } from '../../web/chat/families.js';
import { SIDE_FIELDS } from '../../web/chat/chat-scenario-fields.js';
import { checkClaim } from '../../web/shared/claims.js';
import { createMarkdown } from './markdown.mjs';
import { locateMarkedText, splitPassage } from './passage.mjs';
import { TOPIC_NAME, closestTopic } from './topics.mjs';
import { parseYamlSource, pathText } from './yaml-source.mjs';

// Every message this compiler writes, in one place.
const TEXT = {
  unknownTopic: (tag, file, near) =>
    `"${tag}" is not a topic of ${file}${near ? ` (did you mean "${near}"?)` : ''}: use one listed there, or add it there with its one-sentence description`,
  required: (field) => `missing required field "${field}"`,
  unknownField: (field) => `unknown field "${field}" (check its spelling against content/schema/exercise.schema.json)`,
  type: (type) => `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`,
  enum: (allowed, got) => `must be one of ${allowed.join(', ')} (got ${JSON.stringify(got)})`,
  minItems: (n, has) => `needs at least ${n} item${n === 1 ? '' : 's'} (has ${has})`,
  maxItems: (n, has) => `allows at most ${n} items (has ${has})`,
  minLength: (n) => (n === 1 ? 'must not be empty' : `must be at least ${n} characters`),
  maxLength: (n, has) => `must be at most ${n} characters (has ${has})`,
  pattern: (hint) => `must be ${hint}`,
  unique: (i, j) => `items ${j} and ${i} are the same; remove one`,
  dependent: (field, needs) => `"${field}" needs "${needs}" as well`,
  idMismatch: (id, name) => `id "${id}" must equal the file name without .yaml ("${name}")`,
  badFileName: (name) => `file name "${name}" must be lower-case words joined by hyphens, ending in .yaml`,
  notInPassage: (text) => `${JSON.stringify(clip(text))} is not in the passage (it must match the passage character for character)`,
  manyInPassage: (text, n) => `${JSON.stringify(clip(text))} occurs ${n} times in the passage; make it unique (add a neighbouring word)`,
  overlap: (a, b) => `overlaps ${a}; marked texts must not share characters`,
  sharedWord: (a, word) => `shares the clickable word ${JSON.stringify(clip(word))} with ${a}; make them start and end at spaces`,
  request: (side) => `see_it_break.${side} needs "features" (token ids) or "text_features" (text)`,
  numbersWithoutBreak: 'uses {{…}} live numbers but the exercise has no see_it_break to compute them',
  chatFamily: (id) => `"${id}" is not a model family; expected one of ${FAMILIES.map((f) => f.id).join(', ')}`,
  chatSide: (key) => `"${key}" is not a chat policy field; expected one of ${SIDE_FIELDS.join(', ')}`,
  chatNumbers: 'live numbers need the exercise page to run the see_it_break, and chat ones run on the Chat masks page: write the counts into claims instead',
};

function clip(s, n = 60) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

// Markdown fields: [path, block?] for every field that is rendered.
function markdownFields(data) {
  const fields = [
    [['fix'], true],
    [['detailed'], true],
    [['tldr'], false],
    [['analogy'], false],
    [['memory_aid'], false],
  ];
  (data.errors ?? []).forEach((_, i) => fields.push([['errors', i, 'reason'], false]));
  (data.near_misses ?? []).forEach((_, i) => fields.push([['near_misses', i, 'note'], false]));
  (data.key_concepts ?? []).forEach((_, i) => fields.push([['key_concepts', i, 'definition'], false]));
  (data.follow_ups ?? []).forEach((_, i) => {
    fields.push([['follow_ups', i, 'question'], false]);
    fields.push([['follow_ups', i, 'answer'], true]);
  });
  (data.red_flags ?? []).forEach((_, i) => fields.push([['red_flags', i], false]));
  (data.cheat_sheet ?? []).forEach((_, i) => fields.push([['cheat_sheet', i], false]));
  return fields;
}

function valueAt(data, path) {
  return path.reduce((node, key) => (node === undefined || node === null ? undefined : node[key]), data);
}

// "/errors/1/text" -> ['errors', 1, 'text']
function pointerToPath(pointer) {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

// topics: { names: Map of topic -> description, file: where they are written } (topics.mjs), or
// null to leave tags unchecked.
export function createExerciseCompiler({ schema, mathStyles, topics = null }) {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false });
  ajv.addKeyword({ keyword: 'patternHint', schemaType: 'string' });
  const validate = ajv.compile(schema);
  const md = createMarkdown({ mathStyles });

  function schemaProblems(data, source, report) {
    if (validate(data)) return;
    for (const error of validate.errors) {
      const path = pointerToPath(error.instancePath);
      const p = error.params;
      switch (error.keyword) {
        case 'if':
          break; // its "then" error says what is missing
        case 'required':
          report(path, TEXT.required(p.missingProperty));
          break;
        case 'additionalProperties':
          report([...path, p.additionalProperty], TEXT.unknownField(p.additionalProperty), source.whereKey(path, p.additionalProperty));
          break;
        case 'type':
          report(path, TEXT.type(p.type));
          break;
        case 'enum':
          report(path, TEXT.enum(p.allowedValues, error.data));
          break;
        case 'minItems':
          report(path, TEXT.minItems(p.limit, error.data.length));
          break;
        case 'maxItems':
          report(path, TEXT.maxItems(p.limit, error.data.length));
          break;
        case 'minLength':
          report(path, TEXT.minLength(p.limit));
          break;
        case 'maxLength':
          report(path, TEXT.maxLength(p.limit, error.data.length));
          break;
        case 'pattern':
          report(path, TEXT.pattern(error.parentSchema.patternHint ?? `like ${p.pattern}`));
          break;
        case 'uniqueItems':
          report([...path, p.i], TEXT.unique(p.i, p.j));
          break;
        case 'dependentRequired':
          report(path, TEXT.dependent(p.property, p.missingProperty));
          break;
        default:
          report(path, error.message);
      }
    }
  }

  // Every marked text found once; returns [{ kind, index, start, end, units }].
  function markedTexts(data, passage, report) {
    const found = [];
    for (const kind of ['errors', 'near_misses']) {
      const list = Array.isArray(data[kind]) ? data[kind] : [];
      list.forEach((item, index) => {
        if (typeof item?.text !== 'string' || item.text === '') return;
        const where = locateMarkedText(passage.text, passage.units, item.text);
        if (!where.ok) {
          report([kind, index, 'text'], where.count === 0 ? TEXT.notInPassage(item.text) : TEXT.manyInPassage(item.text, where.count));
          return;
        }
        found.push({ kind, index, ...where });
      });
    }
    for (let i = 0; i < found.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const a = found[j];
        const b = found[i];
        const name = `${a.kind}[${a.index}]`;
        if (a.start < b.end && b.start < a.end) report([b.kind, b.index, 'text'], TEXT.overlap(name));
        else {
          const shared = b.units.find((u) => a.units.includes(u));
          if (shared !== undefined) report([b.kind, b.index, 'text'], TEXT.sharedWord(name, passage.units[shared].text));
        }
      }
    }
    return found;
  }

  function compile(text, file) {
    const problems = [];
    const source = parseYamlSource(text, file);
    const report = (path, message, at = source.where(path)) =>
      problems.push({ file, line: at.line, col: at.col, path: pathText(path), message });

    for (const p of source.yamlProblems) problems.push({ file, line: p.line, col: p.col, path: 'yaml', message: p.message });
    if (source.yamlProblems.length) return { exercise: null, problems, numbers: [] };

    const data = source.data;
    schemaProblems(data, source, report);
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { exercise: null, problems, numbers: [] };

    if (topics && Array.isArray(data.tags)) {
      data.tags.forEach((tag, i) => {
        if (typeof tag === 'string' && TOPIC_NAME.test(tag) && !topics.names.has(tag)) report(['tags', i], TEXT.unknownTopic(tag, topics.file, closestTopic(topics.names, tag)));
      });
    }

    const name = basename(file).replace(/\.yaml$/, '');
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) report([], TEXT.badFileName(basename(file)), { line: 1, col: 1 });
    if (typeof data.id === 'string' && data.id !== name) report(['id'], TEXT.idMismatch(data.id, name));

    const passage = splitPassage(typeof data.passage === 'string' ? data.passage : '');
    const marked = markedTexts(data, passage, report);

    if (Array.isArray(data.claims)) {
      data.claims.forEach((claim, i) => {
        for (const p of checkClaim(claim)) {
          const rel = p.path ? p.path.split('.') : [];
          report(['claims', i, ...rel], p.message);
        }
      });
    }
    const requests = data.see_it_break;
    const chat = requests?.kind === 'chat';
    if (chat) {
      if (typeof requests.family === 'string' && !familyById(requests.family)) report(['see_it_break', 'family'], TEXT.chatFamily(requests.family));
      for (const side of ['buggy', 'fixed']) {
        for (const key of Object.keys(requests[side] ?? {})) if (!SIDE_FIELDS.includes(key)) report(['see_it_break', side, key], TEXT.chatSide(key));
      }
    } else if (requests && typeof requests === 'object') {
      for (const side of ['buggy', 'fixed']) {
        const request = requests[side];
        if (request && typeof request === 'object' && !('features' in request) && !('text_features' in request)) {
          report(['see_it_break', side], TEXT.request(side));
        }
      }
    }

    // Markdown: rendered once here; problems located at the snippet inside the field.
    const html = new Map();
    const numbers = [];
    for (const [path, block] of markdownFields(data)) {
      const value = valueAt(data, path);
      if (typeof value !== 'string') continue;
      const env = md.newEnv();
      html.set(pathText(path), block ? md.block(value, env) : md.inline(value, env));
      for (const p of env.problems) report(path, p.message, source.whereInValue(path, p.snippet));
      for (const n of env.numbers) numbers.push({ ...n, path, at: source.whereInValue(path, `{{${n.source}.${n.metric}`) });
    }
    if (numbers.length && !requests) report([numbers[0].path].flat(), TEXT.numbersWithoutBreak);
    if (numbers.length && chat) report([numbers[0].path].flat(), TEXT.chatNumbers);

    if (problems.length) return { exercise: null, problems, numbers: [] };

    const unitOwner = new Map();
    for (const m of marked) for (const u of m.units) unitOwner.set(u, m);
    const get = (...path) => html.get(pathText(path));
    const exercise = {
      id: data.id,
      title: data.title,
      kind: data.kind,
      language: data.language ?? null,
      level: data.level,
      order: data.order ?? null,
      tags: data.tags,
      prompt: data.prompt,
      source: file,
      passage: {
        lead: passage.lead,
        line_count: passage.lineCount,
        units: passage.units.map((unit, i) => {
          const owner = unitOwner.get(i);
          return {
            text: unit.text,
            ws: unit.ws,
            error: owner?.kind === 'errors' ? owner.index : null,
            near_miss: owner?.kind === 'near_misses' ? owner.index : null,
          };
        }),
      },
      errors: data.errors.map((e, i) => ({
        text: e.text,
        reason_html: get('errors', i, 'reason'),
        units: marked.find((m) => m.kind === 'errors' && m.index === i).units,
      })),
      near_misses: (data.near_misses ?? []).map((e, i) => ({
        text: e.text,
        note_html: get('near_misses', i, 'note'),
        units: marked.find((m) => m.kind === 'near_misses' && m.index === i).units,
      })),
      tldr_html: get('tldr'),
      analogy_html: get('analogy'),
      key_concepts: data.key_concepts.map((k, i) => ({ term: k.term, definition_html: get('key_concepts', i, 'definition') })),
      fix_html: get('fix'),
      detailed_html: get('detailed'),
      follow_ups: data.follow_ups.map((_, i) => ({
        question_html: get('follow_ups', i, 'question'),
        answer_html: get('follow_ups', i, 'answer'),
      })),
      red_flags_html: data.red_flags.map((_, i) => get('red_flags', i)),
      cheat_sheet_html: data.cheat_sheet.map((_, i) => get('cheat_sheet', i)),
      memory_aid_html: get('memory_aid'),
      references: data.references.map((r) => ({ title: r.title, url: r.url })),
      see_it_break: requests
        ? {
            ...(chat ? { kind: 'chat', family: requests.family, conversation: requests.conversation } : {}),
            buggy: requests.buggy,
            fixed: requests.fixed,
            buggy_label: requests.buggy_label ?? null,
            fixed_label: requests.fixed_label ?? null,
          }
        : null,
      claims: data.claims ?? [],
      train: data.train ? { bug: data.train.bug } : null,
      live_numbers: numbers.map(({ source: s, metric, format }) => ({ source: s, metric, format })),
    };
    return {
      exercise,
      problems,
      // Positions kept for check-with-core.mjs, which reports claims and numbers that fail.
      where: {
        claim: (i) => ({ file, ...source.where(['claims', i]), path: `claims[${i}]` }),
        request: (side) => ({ file, ...source.where(['see_it_break', side]), path: `see_it_break.${side}` }),
        numbers: numbers.map((n) => ({ file, line: n.at.line, col: n.at.col, path: pathText(n.path), source: n.source, metric: n.metric })),
      },
    };
  }

  return { compile };
}
