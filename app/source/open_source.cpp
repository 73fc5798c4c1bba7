#include <memory>
#include <string>

#include "app/common/check.hpp"
#include "app/net/udp_source.hpp"
#include "app/replay/replay_source.hpp"
#include "app/sim/sim_source.hpp"
#include "app/source/sim_navigation.hpp"
#include "app/source/source.hpp"
#include "app/source/source_uri.hpp"

namespace sweepline {

std::unique_ptr<RecordSource> open_source(const std::string& uri, const SourceOptions& options) {
  const source::ParsedUri u = source::parse_uri(uri);
  if (u.scheme == "sim") return source::open_sim_with_navigation(uri, options);
  if (u.scheme == "udp") {
    return std::make_unique<net::UdpSource>(source::live_options(u, options, uri));
  }
  std::string path = u.body;
  if (uri.rfind("file://", 0) == 0) {
    if (path.empty()) throw Error("source '" + uri + "': no file name after file://");
  }
  return std::make_unique<replay::ReplaySource>(path, source::replay_options(u, options, uri));
}

}  // namespace sweepline
