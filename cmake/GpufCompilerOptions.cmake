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
