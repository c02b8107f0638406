# gpuf_add_areas(AREA…): adds each named source area (a sub-folder with its own CMakeLists.txt) of the current
# directory; a listed area that does not exist stops the configure, so a list never names a folder that is not there.
function(gpuf_add_areas)
    foreach(area IN LISTS ARGN)
        if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${area}/CMakeLists.txt)
            file(RELATIVE_PATH here ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
            message(FATAL_ERROR "${here}/CMakeLists.txt lists the area '${area}', but ${here}/${area}/CMakeLists.txt does not exist")
        endif()
        add_subdirectory(${area})
    endforeach()
endfunction()
