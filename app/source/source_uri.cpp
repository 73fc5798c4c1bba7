#include "app/source/source_uri.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <set>

#include "app/common/check.hpp"

namespace sweepline::source {

namespace {

[[noreturn]] void fail(const std::string& uri, const std::string& why) {
  throw Error("source '" + uri + "': " + why);
}

std::string percent_decode(const std::string& s, const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size() || !std::isxdigit(uint8_t(s[i + 1])) || !std::isxdigit(uint8_t(s[i + 2])))
      fail(uri, "bad %-escape in '" + s + "'");
    out += char(std::strtol(s.substr(i + 1, 2).c_str(), nullptr, 16));
    i += 2;
  }
  return out;
}

long parse_int(const std::string& v, long lo, long hi, const std::string& what,
               const std::string& uri) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || n < lo || n > hi)
    fail(uri, what + " must be a whole number in " + std::to_string(lo) + ".." +
                  std::to_string(hi) + ", not '" + v + "'");
  return n;
}

double parse_double(const std::string& v, const std::string& what, const std::string& uri) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(d == d))
    fail(uri, what + " must be a number, not '" + v + "'");
  return d;
}

bool parse_bool(const std::string& v, const std::string& what, const std::string& uri) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  fail(uri, what + " must be 0 or 1, not '" + v + "'");
}

void check_keys(const ParsedUri& u, const std::set<std::string>& allowed, const std::string& uri) {
  for (const auto& [k, v] : u.query) {
    if (!allowed.count(k)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(uri, "unknown option '" + k + "' for " + u.scheme + ":// (known: " + list + ")");
    }
  }
}

}  // namespace

ParsedUri parse_uri(const std::string& uri) {
  if (uri.empty()) throw Error("source: empty URI (use sim://..., udp://GROUP:PORT or a file)");
  ParsedUri u;
  const size_t sep = uri.find("://");
  if (sep == std::string::npos) {
    u.scheme = "file";
    u.body = uri;  // a plain path: no query, '?' may be part of the name
    return u;
  }
  u.scheme = uri.substr(0, sep);
  if (u.scheme != "sim" && u.scheme != "udp" && u.scheme != "file")
    fail(uri, "unknown scheme '" + u.scheme + "' (use sim://, udp://, file:// or a plain path)");
  const std::string rest = uri.substr(sep + 3);
  const size_t q = rest.find('?');
  u.body = rest.substr(0, q);
  if (q != std::string::npos) {
    const std::string query = rest.substr(q + 1);
    size_t pos = 0;
    while (pos <= query.size()) {
      const size_t amp = std::min(query.find('&', pos), query.size());
      const std::string kv = query.substr(pos, amp - pos);
      if (!kv.empty()) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) fail(uri, "expected key=value, not '" + kv + "'");
        const std::string key = kv.substr(0, eq);
        const std::string value = percent_decode(kv.substr(eq + 1), uri);
        if (key == kTracksKey && u.query.count(key))
          u.query[key] += "," + value;  // one server per tracks=, or a comma list: the same
        else if (u.query.count(key))
          fail(uri, "option '" + key + "' given twice");
        else
          u.query[key] = value;
      }
      pos = amp + 1;
    }
  }
  return u;
}

net::LiveOptions live_options(const ParsedUri& u, const SourceOptions& options,
                              const std::string& uri) {
  check_keys(u, {"iface", "record", "format", "rcvbuf", kTracksKey}, uri);
  (void)remote_track_endpoints(u, uri);  // a bad tracks= fails the open, not later
  net::LiveOptions o;
  o.uri = uri;
  const size_t colon = u.body.rfind(':');
  if (colon == std::string::npos)
    fail(uri, "expected udp://GROUP:PORT (e.g. udp://239.0.0.1:4433)");
  o.udp.address = u.body.substr(0, colon);
  o.udp.port = int(parse_int(u.body.substr(colon + 1), 1, 65535, "the port", uri));
  if (!o.udp.address.empty()) {
    try {
      capture::parse_ipv4(o.udp.address);
    } catch (const Error&) {
      fail(uri, "'" + o.udp.address + "' is not an IPv4 address");
    }
  }
  o.udp.interface = u.query.count("iface") ? u.query.at("iface") : options.interface;
  if (u.query.count("rcvbuf"))
    o.udp.rcvbuf_bytes = int(parse_int(u.query.at("rcvbuf"), 0, 1 << 30, "rcvbuf", uri));
  o.record_path = u.query.count("record") ? u.query.at("record") : options.record_path;
  const std::string fmt = u.query.count("format") ? u.query.at("format") : options.record_format;
  try {
    o.record_format = capture::recording_format_from_string(fmt);
  } catch (const Error& e) {
    fail(uri, e.what());
  }
  return o;
}

std::vector<net::UdpConfig> remote_track_endpoints(const ParsedUri& u, const std::string& uri) {
  std::vector<net::UdpConfig> out;
  const auto it = u.query.find(kTracksKey);
  if (u.scheme != "udp" || it == u.query.end()) return out;
  const std::string video = u.body;
  const std::string iface = u.query.count("iface") ? u.query.at("iface") : std::string();
  size_t pos = 0;
  const std::string& list = it->second;
  while (pos <= list.size()) {
    const size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t colon = item.rfind(':');
    if (item.empty() || colon == std::string::npos)
      fail(uri,
           "tracks must be GROUP:PORT (a server's CAT048 tracks, e.g. tracks=239.0.2.3:8612), "
           "not '" +
               item + "'");
    net::UdpConfig c;
    c.address = item.substr(0, colon);
    c.port = int(parse_int(item.substr(colon + 1), 1, 65535, "the tracks port", uri));
    uint32_t ip = 0;
    if (!c.address.empty()) {
      try {
        ip = capture::parse_ipv4(c.address);
      } catch (const Error&) {
        fail(uri, "tracks: '" + c.address + "' is not an IPv4 address");
      }
    }
    if (item == video) fail(uri, "tracks " + item + " is the video's own group:port");
    for (const net::UdpConfig& o : out)
      if (o.address == c.address && o.port == c.port) fail(uri, "tracks " + item + " given twice");
    if (net::is_multicast(ip)) c.interface = iface;
    c.rcvbuf_bytes = net::kRemoteRcvbufBytes;
    out.push_back(c);
  }
  return out;
}

replay::ReplayOptions replay_options(const ParsedUri& u, const SourceOptions& options,
                                     const std::string& uri) {
  check_keys(u, {"port", "group", "speed", "loop", "pacing", "period"}, uri);
  replay::ReplayOptions o;
  o.uri = uri;
  o.speed = options.speed;
  o.loop = options.loop;
  o.filter.port = options.port;
  o.filter.group = options.group;
  const auto& q = u.query;
  if (q.count("port")) o.filter.port = int(parse_int(q.at("port"), 0, 65535, "port", uri));
  if (q.count("group")) o.filter.group = q.at("group");
  if (q.count("speed")) o.speed = parse_double(q.at("speed"), "speed", uri);
  if (q.count("loop")) o.loop = parse_bool(q.at("loop"), "loop", uri);
  if (q.count("period")) {
    o.rotation_period_s = parse_double(q.at("period"), "period", uri);
    if (!(o.rotation_period_s > 0)) fail(uri, "period must be positive (seconds per rotation)");
  }
  if (q.count("pacing")) {
    const std::string& p = q.at("pacing");
    if (p == "auto")
      o.pacing = replay::Pacing::Auto;
    else if (p == "capture")
      o.pacing = replay::Pacing::CaptureTime;
    else if (p == "tod")
      o.pacing = replay::Pacing::TimeOfDay;
    else if (p == "rotation")
      o.pacing = replay::Pacing::RotationRate;
    else
      fail(uri, "pacing must be auto, capture, tod or rotation, not '" + p + "'");
  }
  if (o.speed < 0) fail(uri, "speed must be >= 0 (0 = as fast as possible)");
  return o;
}

}  // namespace sweepline::source
