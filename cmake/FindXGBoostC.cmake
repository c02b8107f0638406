# Finds XGBoost's C API (Debian: libxgboost-dev). Defines XGBoost::C.
# A module of our own: Debian's XGBoost CMake config also requires the `xgboost` command-line package.
find_path(XGBoostC_INCLUDE_DIR NAMES xgboost/c_api.h)
find_library(XGBoostC_LIBRARY NAMES xgboost)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(XGBoostC REQUIRED_VARS XGBoostC_LIBRARY XGBoostC_INCLUDE_DIR)
if(XGBoostC_FOUND AND NOT TARGET XGBoost::C)
    add_library(XGBoost::C UNKNOWN IMPORTED)
    set_target_properties(XGBoost::C PROPERTIES
        IMPORTED_LOCATION "${XGBoostC_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${XGBoostC_INCLUDE_DIR}")
endif()
mark_as_advanced(XGBoostC_INCLUDE_DIR XGBoostC_LIBRARY)
