# costmodel_bench: feature extraction, cached forecasts per second on one core, training time on the measured corpus.
add_executable(costmodel_bench ${CMAKE_CURRENT_LIST_DIR}/costmodel_bench.cpp)
target_link_libraries(costmodel_bench PRIVATE gpuf-core)
