# The server core: net/ (listener, HTTP, WebSocket), room/ (rooms,
# registry, per-connection protocol state), app/ (config, logging, metrics,
# the server object) and the cod-server executable.
#
# Only net/*.cpp and app/server.cpp include Asio/Beast (the slow headers);
# rooms run on an abstract serial executor (room/executor.hpp).
add_library(cod_server_core STATIC
  app/config.cpp
  app/logging.cpp
  app/metrics.cpp
  app/server.cpp
  net/connection_limits.cpp
  net/http_session.cpp
  net/listener.cpp
  net/net_context.cpp
  common/rate_limiter.cpp
  common/status.cpp
  net/send_queue.cpp
  net/static_files.cpp
  net/strand_executor.cpp
  net/websocket_session.cpp
  room/client_session.cpp
  room/random.cpp
  room/room.cpp
  room/room_draft.cpp
  room/room_registry.cpp
  # Tournaments run by the server: the service that opens rooms for
  # their games and hears their results, and the organiser API.
  tournament_service/organiser_api.cpp
  tournament_service/tournament_json.cpp
  tournament_service/tournament_service.cpp
)
target_include_directories(cod_server_core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(cod_server_core PUBLIC
  cod_admin_core cod_persist cod_tournament_store cod_protocol Boost::headers spdlog::spdlog nlohmann_json::nlohmann_json Threads::Threads)
# Boost 1.74's Asio under g++ 12 -std=c++20 needs <utility> first (see
# server/CMakeLists.txt). PUBLIC: tests that include Beast need it too.
target_compile_options(cod_server_core PUBLIC -include utility)
target_compile_definitions(cod_server_core PUBLIC BOOST_ASIO_NO_DEPRECATED)

add_executable(cod-server app/main.cpp)
target_link_libraries(cod-server PRIVATE cod_server_core)
target_compile_definitions(cod-server PRIVATE COD_DEFAULT_CATALOGUE="${COD_CATALOGUE}"
                                             COD_DEFAULT_WEB_ROOT="${CMAKE_CURRENT_SOURCE_DIR}/web")

