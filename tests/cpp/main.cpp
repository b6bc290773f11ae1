// The doctest runner: this file only supplies main(). The tests live in the other tests/cpp/*.cpp.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
