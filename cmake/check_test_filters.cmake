# The CTest entry ctest_filters: every registered mpg_tests entry's filter matches at least one test
# case, and every test case is run by some entry. A filter that matches nothing makes Catch2 run
# nothing and pass; a case no entry selects never runs under CTest.
#
#   cmake -DMPG_TESTS=<mpg_tests> -DCTEST=<ctest> -DBUILD_DIR=<build dir> -P check_test_filters.cmake
#
# The entries are read from CTest itself (ctest --show-only=json-v1), so the check sees exactly what
# CMakeLists.txt registered. Filters are expected to be a single tag, "[<tag>]".
foreach(var MPG_TESTS CTEST BUILD_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_test_filters.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} --show-only=json-v1
                OUTPUT_VARIABLE json RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 failed (${status}): ${error}")
endif()

get_filename_component(mpg_tests_name ${MPG_TESTS} NAME)
string(JSON count LENGTH "${json}" tests)
math(EXPR last "${count} - 1")
set(empty "")
set(exclude_all "")
set(entries 0)
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  string(JSON command_length ERROR_VARIABLE no_command LENGTH "${json}" tests ${i} command)
  if(no_command OR command_length LESS 2)
    continue()
  endif()
  string(JSON program GET "${json}" tests ${i} command 0)
  get_filename_component(program_name "${program}" NAME)
  if(NOT program_name STREQUAL mpg_tests_name)
    continue()
  endif()
  math(EXPR last_argument "${command_length} - 1")
  string(JSON filter GET "${json}" tests ${i} command ${last_argument})
  if(NOT filter MATCHES "^\\[[^]~,]+\\]$")
    message(SEND_ERROR "entry ${name}: filter '${filter}' is not a single tag [<tag>]")
    continue()
  endif()
  math(EXPR entries "${entries} + 1")
  string(APPEND exclude_all "~${filter}")
  execute_process(COMMAND ${MPG_TESTS} --list-test-names-only "${filter}" OUTPUT_VARIABLE names)
  string(STRIP "${names}" names)
  if(names STREQUAL "")
    list(APPEND empty "${name} (${filter})")
  endif()
endforeach()

if(entries EQUAL 0)
  message(FATAL_ERROR "no CTest entry runs ${mpg_tests_name}")
endif()
if(empty)
  list(JOIN empty ", " empty)
  message(SEND_ERROR "CTest entries whose filter matches no test case: ${empty}")
endif()

# The cases no entry selects: those outside every entry's tag.
execute_process(COMMAND ${MPG_TESTS} --list-test-names-only "${exclude_all}" OUTPUT_VARIABLE orphans)
string(STRIP "${orphans}" orphans)
if(NOT orphans STREQUAL "")
  message(SEND_ERROR "test cases that no CTest entry runs (tag them [<feature>] of their file):\n${orphans}")
endif()

if(NOT empty AND orphans STREQUAL "")
  message(STATUS "${entries} CTest entries of ${mpg_tests_name}: each filter matches test cases, and every case is run")
endif()
