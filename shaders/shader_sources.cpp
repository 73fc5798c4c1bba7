#include "shaders/shader_sources.hpp"

#include <string>
#include <utility>

#include "app/common/check.hpp"

namespace sweepline::shaders {

extern const std::pair<std::string_view, std::string_view> kEmbedded[];
extern const int kEmbeddedCount;

std::string_view source(std::string_view name) {
  for (int i = 0; i < kEmbeddedCount; ++i)
    if (kEmbedded[i].first == name) return kEmbedded[i].second;
  SWL_CHECK(false, "no embedded shader named '" + std::string(name) + "'");
  return {};
}

}  // namespace sweepline::shaders
