# llm_client_bench: 64 concurrent streamed forecasts against the loopback OpenAI-compatible server (client CPU cost).
add_executable(llm_client_bench ${CMAKE_CURRENT_LIST_DIR}/llm_client_bench.cpp)
target_link_libraries(llm_client_bench PRIVATE gpuf-core gpuf-test-openai-server)
