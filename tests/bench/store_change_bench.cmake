# store_change_bench: a stored measurement until the 100 000-row candidate table shows it: patched rows vs a full reload.
add_executable(store_change_bench ${CMAKE_CURRENT_LIST_DIR}/store_change_bench.cpp)
target_link_libraries(store_change_bench PRIVATE gpuf-widgets)
