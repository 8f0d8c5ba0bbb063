# Clients of cod-server (included from tools/CMakeLists.txt):
#   cod-bot   one WebSocket player (or spectator) playing random moves from the server's legal actions
#             or a computer player's (engine/search), or a whole tournament or mutation league
#   cod-load  the load driver of scripts/bench-server (N duel rooms at once)
# They speak only the wire protocol (docs/protocol.md) through cod_protocol;
# of the server they use only the ground floor (common/strcat.hpp).
add_library(cod_bot_lib STATIC
  ${CMAKE_CURRENT_LIST_DIR}/bot/http_call.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bot/league_moves.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bot/moves.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bot/search_policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bot/view_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bot/ws_client.cpp
)
target_include_directories(cod_bot_lib PUBLIC ${CMAKE_CURRENT_LIST_DIR})
# OpenSSL: wss:// through a cluster's TLS proxy (docs/cluster.md).
target_link_libraries(cod_bot_lib PUBLIC cod_protocol cod_search Boost::headers OpenSSL::SSL nlohmann_json::nlohmann_json
                      Threads::Threads)
# Boost 1.74's Asio under g++ 12 -std=c++20 needs <utility> first.
target_compile_options(cod_bot_lib PUBLIC -include utility)
target_compile_definitions(cod_bot_lib PUBLIC BOOST_ASIO_NO_DEPRECATED)

add_executable(cod-bot ${CMAKE_CURRENT_LIST_DIR}/cod_bot.cpp)
target_link_libraries(cod-bot PRIVATE cod_bot_lib cod_server_common)
target_compile_definitions(cod-bot PRIVATE COD_DEFAULT_CATALOGUE="${COD_CATALOGUE}")

add_executable(cod-load ${CMAKE_CURRENT_LIST_DIR}/cod_load.cpp)
target_link_libraries(cod-load PRIVATE cod_bot_lib)
target_compile_definitions(cod-load PRIVATE COD_DEFAULT_CATALOGUE="${COD_CATALOGUE}")
