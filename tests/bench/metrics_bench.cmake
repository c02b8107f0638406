# metrics_bench: all calibration metrics over 100 000 synthetic forecasts, with and without bootstrap.
add_executable(metrics_bench ${CMAKE_CURRENT_LIST_DIR}/metrics_bench.cpp)
target_link_libraries(metrics_bench PRIVATE gpuf-core)
