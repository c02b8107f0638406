# diff_view_bench: the side-by-side diff view building and showing a 2 000-line kernel pair, offscreen (DESIGN §10).
add_executable(diff_view_bench ${CMAKE_CURRENT_LIST_DIR}/diff_view_bench.cpp)
target_link_libraries(diff_view_bench PRIVATE gpuf-widgets)
