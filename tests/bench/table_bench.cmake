# table_bench: the candidate browser on a generated 100 000-candidate store (open, sort, filter; offscreen).
add_executable(table_bench ${CMAKE_CURRENT_LIST_DIR}/table_bench.cpp)
target_link_libraries(table_bench PRIVATE gpuf-widgets)
