#pragma once
#include <string_view>

namespace sweepline::shaders {

// The text of shaders/<name>, embedded at build time. Throws sweepline::Error if unknown.
std::string_view source(std::string_view name);

}  // namespace sweepline::shaders
