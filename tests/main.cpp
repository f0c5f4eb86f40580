// Catch2 entry point; every other file in tests/ is one feature's cases, tagged [<feature>].
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
