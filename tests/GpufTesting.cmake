# gpuf_add_test(NAME SOURCES … [LIBS …]): one Qt Test suite, run offscreen with test-mode paths.
set(GPUF_TEST_DATA_DIR ${CMAKE_CURRENT_SOURCE_DIR}/data)
# Suites and benches read the corpus and the measured sweeps from the source tree; production code never may
# (an installed program has no source tree), so this is defined for every target under tests/ and nowhere else.
add_compile_definitions(GPUF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# Suites share two precompiled headers (tests/support/pch: Qt and the standard library, no project header), one for the
# suites of the core libraries and one for the views'; a suite's own code then compiles in about half the time.
option(GPUF_TEST_PCH "Compile the suites against shared precompiled headers" ON)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND GPUF_TEST_PCH)
    # GCC uses a precompiled header only under the same command-line macros. Qt Test defines two per folder
    # (QT_TESTCASE_BUILDDIR and _SOURCEDIR, for QFINDTESTDATA, which no suite uses), so they are left out.
    get_target_property(_gpuf_test_definitions Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
    list(FILTER _gpuf_test_definitions EXCLUDE REGEX "^QT_TESTCASE_(BUILD|SOURCE)DIR=")
    set_property(TARGET Qt6::Test PROPERTY INTERFACE_COMPILE_DEFINITIONS ${_gpuf_test_definitions})
    set(_gpuf_test_pch ON)
endif()

# gpuf_suite_flags(TARGET): what every suite's own code is compiled with. A suite drives the libraries, which keep the
# configuration's flags; its own code is compiled for a quick build (about 40% less time than -O2 -g) with line tables,
# so failures still have file and line.
function(gpuf_suite_flags target)
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-O1 -g1>)
    target_compile_definitions(${target} PRIVATE
        GPUF_TEST_DATA_DIR="${GPUF_TEST_DATA_DIR}" GPUF_BINARY_DIR="${PROJECT_BINARY_DIR}")
endfunction()

# The two precompiled headers, each made by a target of its own under the Qt modules of the suites that reuse it (built
# only when one of them is).
if(_gpuf_test_pch)
    set(kinds core)
    if(TARGET gpuf-widgets)
        list(APPEND kinds widgets)
    endif()
    foreach(kind ${kinds})
        add_library(gpuf-test-pch-${kind} OBJECT EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/tests/support/pch/anchor.cpp)
        target_link_libraries(gpuf-test-pch-${kind} PRIVATE Qt6::Test gpuf-${kind})
        gpuf_suite_flags(gpuf-test-pch-${kind})
        target_precompile_headers(gpuf-test-pch-${kind} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/pch/suite_${kind}.h)
    endforeach()
endif()

# gpuf_suite_pch(TARGET LIBS…): the suite reuses the precompiled header of its Qt modules: the views' when it links the
# widgets, the core's when it links only the core libraries; none otherwise.
function(gpuf_suite_pch target)
    if(NOT _gpuf_test_pch)
        return()
    elseif(ARGN MATCHES "gpuf-(widgets|explorer-lib)")
        target_precompile_headers(${target} REUSE_FROM gpuf-test-pch-widgets)
    elseif(ARGN MATCHES "gpuf-(core|session|test-session)")
        target_precompile_headers(${target} REUSE_FROM gpuf-test-pch-core)
    endif()
endfunction()

function(gpuf_add_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
    gpuf_suite_flags(${name})
    gpuf_suite_pch(${name} ${ARG_LIBS})
    add_test(NAME ${name} COMMAND ${name})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LC_ALL=C.UTF-8")
endfunction()
