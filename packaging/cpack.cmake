# CPack: Debian packages built from the install rules. `gpuf` holds the explorer, the command-line tool and the
# shared data; `gpuf-measure` holds the CUDA worker (only when it is built) and only suggests the CUDA runtime.
# Library dependencies come from dpkg-shlibdeps on the machine that builds, so a package made on Debian 12 depends
# on Debian 12's libraries and one made on Debian 13 on Debian 13's; the release names the distribution
# (0.1.0-1~deb12), and `apt install ./gpuf_*.deb` pulls in what is missing.

# The distribution the package is built for, from os-release: deb12, deb13, ubuntu24.04, … (empty elsewhere).
set(gpuf_distro "")
if(EXISTS /etc/os-release)
    file(STRINGS /etc/os-release gpuf_os_release REGEX "^(ID|VERSION_ID)=")
    set(gpuf_os_id "")
    set(gpuf_os_version "")
    foreach(line IN LISTS gpuf_os_release)
        if(line MATCHES "^ID=\"?([a-z]+)\"?$")
            set(gpuf_os_id ${CMAKE_MATCH_1})
        elseif(line MATCHES "^VERSION_ID=\"?([0-9.]+)\"?$")
            set(gpuf_os_version ${CMAKE_MATCH_1})
        endif()
    endforeach()
    if(gpuf_os_id STREQUAL "debian")
        # testing and unstable carry no VERSION_ID; they are at least trixie.
        if(gpuf_os_version STREQUAL "")
            set(gpuf_os_version 13)
        endif()
        set(gpuf_distro deb${gpuf_os_version})
    elseif(gpuf_os_id)
        set(gpuf_distro ${gpuf_os_id}${gpuf_os_version})
    endif()
endif()

set(CPACK_PACKAGE_NAME gpuf)
set(CPACK_PACKAGE_VENDOR "GPU Forecaster Explorer")
set(GPUF_PACKAGE_MAINTAINER "GPU Forecaster Explorer maintainers" CACHE STRING
    "The Maintainer field of the .deb packages (\"Name <address>\")")
set(CPACK_PACKAGE_CONTACT "${GPUF_PACKAGE_MAINTAINER}")
# CPackDeb puts a summary other than CPack's default in front of each component's description; with the default kept,
# each description's first line (below) is its own package's summary.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
if(GPUF_HOMEPAGE_URL)
    set(CPACK_PACKAGE_HOMEPAGE_URL ${GPUF_HOMEPAGE_URL})
endif()
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL gpuf)
if(TARGET gpuf-measure)
    list(APPEND CPACK_COMPONENTS_ALL measure)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
if(gpuf_distro)
    set(CPACK_DEBIAN_PACKAGE_RELEASE "1~${gpuf_distro}")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# NVRTC comes from NVIDIA's CUDA packages, which dpkg-shlibdeps knows nothing of: it must find the library to read
# it, and then leaves it out of the dependencies (the worker suggests it instead).
if(TARGET gpuf-measure AND CUDAToolkit_LIBRARY_DIR)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
endif()

# gpuf: what dpkg-shlibdeps cannot see are the Qt plugins it loads: the SQLite driver, the platform plugins (xcb,
# wayland comes as a recommendation) and, from Qt 6.8 on, the SVG icon and image plugins.
set(CPACK_DEBIAN_GPUF_PACKAGE_NAME gpuf)
set(gpuf_plugin_depends "libqt6sql6-sqlite, qt6-qpa-plugins")
if(Qt6_VERSION VERSION_GREATER_EQUAL 6.8)
    string(APPEND gpuf_plugin_depends ", qt6-svg-plugins")
endif()
set(CPACK_DEBIAN_GPUF_PACKAGE_DEPENDS "${gpuf_plugin_depends}")
set(CPACK_DEBIAN_GPUF_PACKAGE_RECOMMENDS "qt6-wayland, shared-mime-info, hicolor-icon-theme")
set(CPACK_DEBIAN_GPUF_PACKAGE_SUGGESTS "gpuf-measure")
# A description's first line is the package's summary.
set(CPACK_COMPONENT_GPUF_DESCRIPTION
    "GPU kernel speedup forecasts, measured when unsure
A desktop application (gpuf-explorer) and a command-line tool (gpuf) for
selective surrogates of GPU kernel performance: a forecaster (an LLM behind
an OpenAI-compatible endpoint, or the built-in XGBoost cost model) predicts
how much faster a candidate kernel is than a reference, as a distribution
over eight speedup bins, and the candidate is measured on the local GPU when
the forecaster is unsure. Includes a kernel corpus, recorded measurements
and a sample store.")

# gpuf-measure: links NVRTC of the CUDA version it was built with and opens the driver and CUPTI at run time.
set(CPACK_DEBIAN_MEASURE_PACKAGE_NAME gpuf-measure)
set(CPACK_DEBIAN_MEASURE_PACKAGE_ENHANCES gpuf)
# Python candidates run in a bubblewrap sandbox; without it they are refused unless the user allows them unsandboxed.
set(CPACK_DEBIAN_MEASURE_PACKAGE_RECOMMENDS bubblewrap)
if(CUDAToolkit_VERSION_MAJOR)
    set(gpuf_cuda_suffix "${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
    set(CPACK_DEBIAN_MEASURE_PACKAGE_SUGGESTS
        "cuda-nvrtc-${gpuf_cuda_suffix}, cuda-cupti-${gpuf_cuda_suffix}, libcuda1 | cuda-drivers, python3")
endif()
set(CPACK_COMPONENT_MEASURE_DESCRIPTION
    "GPU worker of GPU Forecaster Explorer (CUDA)
The GPU worker of GPU Forecaster Explorer: compiles CUDA kernels with NVRTC
and times them on the local NVIDIA GPU, in a process of its own so that a
faulty kernel cannot take the application down. Needs the CUDA runtime
compiler (NVRTC) of the CUDA version it was built with and an NVIDIA driver,
from NVIDIA's CUDA repository.")

include(CPack)
