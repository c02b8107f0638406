# gui_stall_bench: the longest GUI-thread stall while a replay search runs against a 100 000-candidate store with
# every dock shown.
add_executable(gui_stall_bench ${CMAKE_CURRENT_LIST_DIR}/gui_stall_bench.cpp)
target_link_libraries(gui_stall_bench PRIVATE gpuf-explorer-lib)
