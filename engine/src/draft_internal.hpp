// Shared by the draft's source files only.
#pragma once

#include <vector>

#include "cod/engine/draft.hpp"

namespace cod::detail {

// R2.1, RULINGS E63–E65: whether a format is played at a table.
bool draft_allowed(draft_format f, draft_table t);
// Pool cards a format needs (R14.2–R14.7); 0 for preconstructed.
int draft_pool_needed(draft_format f, draft_table t);
// The steps of a format at a table, in order (R14.1–R14.7).
std::vector<draft_step> draft_schedule(draft_format f, draft_table t);

}  // namespace cod::detail
