add_executable(search_views_bench ${CMAKE_CURRENT_LIST_DIR}/search_views_bench.cpp)
target_link_libraries(search_views_bench PRIVATE gpuf-widgets)
# The five views side by side on a stored search (for looking at them and for screenshots).
add_executable(search_views_demo ${CMAKE_CURRENT_LIST_DIR}/search_views_demo.cpp)
target_link_libraries(search_views_demo PRIVATE gpuf-widgets)
