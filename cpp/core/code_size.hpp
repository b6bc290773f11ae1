// code_size.hpp — MASKLAB_SMALL_CODE: compile one function for size inside a file built for speed.
//
// The files on every request's hot path (the loss, collate, the typed-array path) are -O3 for
// their loops; their validation and error messages run once per request, where -O3's inlined
// string building was most of the module's code (issue 11 §4: cross_entropy alone was 20 KB).
// A function marked with it is never inlined (so the link-time optimiser cannot fold it back into
// a hot caller) and, under clang (the wasm build), optimised for minimum size. Keep loops over
// every value out of such a function: call a separate, unmarked helper for them.
// Not a correctness device: g++ (the CLI) only keeps the function out of line.
#pragma once

#if defined(__clang__)
#define MASKLAB_SMALL_CODE [[gnu::noinline, clang::minsize]]
#else
#define MASKLAB_SMALL_CODE [[gnu::noinline]]
#endif
