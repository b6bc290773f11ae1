// The JavaScript face of the doctor module: the batch doctor on a pasted batch. Kept out of the
// core module so the other pages never download the doctor's code.
//
//   import { loadDoctor } from './core/doctor.js';
//   const doctor = await loadDoctor();             // node: loadDoctor({ wasmBinary })
//   const answer = doctor.doctor({ text, pad_token_id: 2 });   // or { error: { field, message } }
//
// The same face as masklab.js's (plain objects in and out, errors as answers, runJson, limits,
// benchRun, memoryBytes; see there), and:
//   doctor.doctorJson(text, optionsJson) -> text   the exact answer bytes for a paste
//   doctor.benchDoctor(text, optionsJson, n)      ms for n diagnoses timed inside wasm

import createMasklabDoctor from '../generated/masklab_doctor.mjs';
import { Boundary, call, commandFace, errorAnswer, moduleLoader } from './boundary.js';

/** The commands of the doctor module (cpp/core/commands_doctor.cpp). */
export const DOCTOR_COMMANDS = Object.freeze(['doctor']);

/** Loads the doctor module once (as loadCore does) and returns its frozen API. */
export const loadDoctor = moduleLoader(createMasklabDoctor, wrap, 'doctor module');

function wrap(module) {
  const boundary = new Boundary(module);
  return commandFace(boundary, DOCTOR_COMMANDS, {
    // doctor({ text, pad_token_id, … }): the pasted text crosses on its own rather than escaped
    // inside a JSON request (megabytes of print(batch) output); the options go as JSON.
    doctor: (request) => {
      const { text, ...options } = request ?? {};
      if (typeof text !== 'string') return errorAnswer('text', 'is missing; paste what print(batch) printed');
      return call(boundary, 'doctor', options, (json) => boundary.doctor(text, json));
    },
    doctorJson: { value: (text, optionsJson) => boundary.doctor(String(text), String(optionsJson)) },
    benchDoctor: { value: (text, optionsJson, iterations) => boundary.benchDoctor(String(text), String(optionsJson), iterations) },
  });
}
