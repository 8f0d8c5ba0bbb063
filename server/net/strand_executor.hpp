// The room's serial_executor in the server: an Asio strand on the shared
// io_context, with steady_timers. Keeps Asio out of the room's code.
#pragma once

#include <memory>

#include "room/executor.hpp"

namespace boost::asio {
class io_context;
}

namespace cod::server {

std::shared_ptr<serial_executor> make_strand_executor(boost::asio::io_context& ioc);

}  // namespace cod::server
