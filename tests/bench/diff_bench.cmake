# diff_bench: the side-by-side diff on a 2 000-line CUDA-like pair and on a 20 000-character line (DESIGN §10).
add_executable(diff_bench ${CMAKE_CURRENT_LIST_DIR}/diff_bench.cpp)
target_link_libraries(diff_bench PRIVATE gpuf-core)
