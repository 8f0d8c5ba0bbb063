// Internal: the view encoder (view_codec.cpp), for messages that embed a view.
#pragma once

#include "cod/engine/catalogue.hpp"
#include "cod/engine/view.hpp"
#include "json_writer.hpp"

namespace cod::protocol::detail {

// Writes `v` as one JSON value (see json_codec.hpp, "Views").
void write_view(json_writer& w, const seat_view& v, const catalogue& cat);

}  // namespace cod::protocol::detail
