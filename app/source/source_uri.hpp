#pragma once
// Parsing of source URIs: `scheme://body?key=value&...` (sim, udp, file) or a plain path.
#include <map>
#include <string>

#include <vector>

#include "app/net/remote_tracks.hpp"
#include "app/net/udp_source.hpp"
#include "app/replay/replay_source.hpp"
#include "app/source/source.hpp"

namespace sweepline::source {

struct ParsedUri {
  std::string scheme;  // "sim", "udp", "file"; "file" for a plain path
  std::string body;    // between "://" and "?" (the whole string for a plain path)
  std::map<std::string, std::string> query;
};

// Throws sweepline::Error for an empty URI, an unknown scheme, or a malformed query.
ParsedUri parse_uri(const std::string& uri);

// The display client's option: the servers whose CAT048 tracks it shows (docs/deployment.md).
inline constexpr const char* kTracksKey = "tracks";

// udp://GROUP:PORT[?iface=IF&record=PATH&format=pcap|pcapng|raw&rcvbuf=BYTES&tracks=G:P[,G:P]]
// GROUP may be empty (udp://:8600, any address). Query values override `options`.
net::LiveOptions live_options(const ParsedUri& u, const SourceOptions& options,
                              const std::string& uri);

// udp://...?tracks=GROUP:PORT[,GROUP:PORT...] (tracks= may also be repeated): one receiver per
// server; iface= applies to the multicast ones. Empty when the URI has no tracks= (or is not
// udp://). Throws sweepline::Error on a malformed endpoint, a port out of range, one given twice
// or the video's own group:port.
std::vector<net::UdpConfig> remote_track_endpoints(const ParsedUri& u, const std::string& uri);

// file://PATH[?port=P&group=G&speed=S&loop=0|1&pacing=auto|capture|tod|rotation&period=S]
// (PATH taken literally) or a plain path (no options). Query values override `options`.
replay::ReplayOptions replay_options(const ParsedUri& u, const SourceOptions& options,
                                     const std::string& uri);

}  // namespace sweepline::source
