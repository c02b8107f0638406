# Finds dtl, the header-only diff template library (Debian: libdtl-dev). Defines Dtl::Dtl.
find_path(Dtl_INCLUDE_DIR NAMES dtl/dtl.hpp)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Dtl REQUIRED_VARS Dtl_INCLUDE_DIR)
if(Dtl_FOUND AND NOT TARGET Dtl::Dtl)
    add_library(Dtl::Dtl INTERFACE IMPORTED)
    set_target_properties(Dtl::Dtl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Dtl_INCLUDE_DIR}")
endif()
mark_as_advanced(Dtl_INCLUDE_DIR)
