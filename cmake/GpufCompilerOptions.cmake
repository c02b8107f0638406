# Project-wide compiler settings: warnings and Qt strictness (STYLE.md, practice 3).
add_library(gpuf_options INTERFACE)
target_compile_options(gpuf_options INTERFACE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wno-missing-field-initializers>)
set(GPUF_QT_STRICT_DEFINITIONS
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_USE_QSTRINGBUILDER QT_NO_FOREACH
    QT_NO_CONTEXTLESS_CONNECT QT_NO_URL_CAST_FROM_STRING QT_NO_CAST_FROM_BYTEARRAY)
add_library(gpuf_qt_options INTERFACE)
target_link_libraries(gpuf_qt_options INTERFACE gpuf_options)
target_compile_definitions(gpuf_qt_options INTERFACE ${GPUF_QT_STRICT_DEFINITIONS})

# Full builds: each library compiles its sources in batches (one translation unit per 16 files), which parses the Qt
# and standard headers and instantiates their templates once per batch instead of once per file; about 2.5 times
# faster from a cold cache. Turn it off to compile every file on its own (an editor's compile database, or to check
# that a file includes what it uses; clang-tidy in scripts/check-tidy always checks files on their own).
option(GPUF_UNITY_BUILD "Compile each library's sources in batches" ON)
# gpuf_unity_build(TARGET…): batches the targets' sources when GPUF_UNITY_BUILD is on.
function(gpuf_unity_build)
    if(GPUF_UNITY_BUILD)
        set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
    endif()
endfunction()

# Linking: LLVM's lld where the compiler can use it (scripts/setup installs it); a test program links in under a second
# instead of three and a half with GNU ld, and there are over a hundred of them.
option(GPUF_USE_LLD "Link with lld when it is available" ON)
if(GPUF_USE_LLD AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-fuse-ld=lld" GPUF_HAVE_LLD)
    if(GPUF_HAVE_LLD)
        add_link_options(-fuse-ld=lld)
    endif()
endif()

# Debug information: kept in .dwo files beside the objects (split DWARF) instead of being copied into every program.
# Each of the 120-odd test programs links all of core and the widgets, so full debug information made each about
# 150 MB and the dev tree 16 GB, more than a CI disk had free; split, the programs carry only line tables, addresses
# and name tables. gdb and perf find the .dwo files in the build tree; the packages are stripped either way.
option(GPUF_SPLIT_DWARF "Keep debug information in .dwo files beside the objects" ON)
if(GPUF_SPLIT_DWARF AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    add_compile_options($<$<CONFIG:Debug,RelWithDebInfo>:-gsplit-dwarf>)
    # lld then writes gdb's index in place of the objects' name tables and compresses what debug information is
    # left: a test program of 43 MB becomes 21 MB, for a third of a second more to link it.
    if(GPUF_HAVE_LLD)
        add_link_options($<$<CONFIG:Debug,RelWithDebInfo>:-Wl,--gdb-index>
            $<$<CONFIG:Debug,RelWithDebInfo>:-Wl,--compress-debug-sections=zlib>)
    endif()
endif()
