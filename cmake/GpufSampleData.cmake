# The sample data: the sample bundle (resources/sample) and every recorded family sweep (resources/sweeps). The sample
# store is made from both at build time (packaging/), or by the program on first use when none is installed
# (core/session/sample_store.cpp). GPUF_SAMPLE_DIGEST names exactly this data: the SHA-256 of the lines
# "<SHA-256 of the file>  <file name>", the bundle's first, then the sweeps' by name; it is compiled into the program
# and written beside the built store, so a store made from other data is never taken for the current one.
set(GPUF_SAMPLE_BUNDLE ${PROJECT_SOURCE_DIR}/resources/sample/sample-bundle.jsonl)
file(GLOB GPUF_SAMPLE_SWEEPS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/sweeps/*.jsonl)
list(SORT GPUF_SAMPLE_SWEEPS)
set(GPUF_SAMPLE_DIGEST "")
if(EXISTS ${GPUF_SAMPLE_BUNDLE})
    set(_gpuf_sample_manifest "")
    foreach(file ${GPUF_SAMPLE_BUNDLE} ${GPUF_SAMPLE_SWEEPS})
        file(SHA256 ${file} _gpuf_file_digest)
        get_filename_component(_gpuf_file_name ${file} NAME)
        string(APPEND _gpuf_sample_manifest "${_gpuf_file_digest}  ${_gpuf_file_name}\n")
        set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
    endforeach()
    string(SHA256 GPUF_SAMPLE_DIGEST "${_gpuf_sample_manifest}")
endif()
