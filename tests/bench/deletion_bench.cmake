add_executable(deletion_bench ${CMAKE_CURRENT_LIST_DIR}/deletion_bench.cpp)
target_link_libraries(deletion_bench PRIVATE gpuf-core)
