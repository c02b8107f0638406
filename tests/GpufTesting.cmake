# gpuf_add_test(NAME SOURCES … [LIBS …]): one Qt Test suite, run offscreen with test-mode paths.
set(GPUF_TEST_DATA_DIR ${CMAKE_CURRENT_SOURCE_DIR}/data)
# Suites and benches read the corpus and the measured sweeps from the source tree; production code never may
# (an installed program has no source tree), so this is defined for every target under tests/ and nowhere else.
add_compile_definitions(GPUF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
function(gpuf_add_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
    # A suite drives the libraries, which keep the configuration's flags; its own code is compiled for a quick build
    # (about 40% less time than -O2 -g) with line tables, so failures still have file and line.
    target_compile_options(${name} PRIVATE $<$<CONFIG:RelWithDebInfo>:-O1 -g1>)
    target_compile_definitions(${name} PRIVATE
        GPUF_TEST_DATA_DIR="${GPUF_TEST_DATA_DIR}" GPUF_BINARY_DIR="${PROJECT_BINARY_DIR}")
    add_test(NAME ${name} COMMAND ${name})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LC_ALL=C.UTF-8")
endfunction()
