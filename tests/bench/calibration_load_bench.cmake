# calibration_load_bench: loading 100 000 forecasts with their truths from a store and computing every report.
add_executable(calibration_load_bench ${CMAKE_CURRENT_LIST_DIR}/calibration_load_bench.cpp)
target_link_libraries(calibration_load_bench PRIVATE gpuf-core)
