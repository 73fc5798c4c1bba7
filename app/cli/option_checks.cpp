#include "app/cli/option_checks.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "app/capture/capture_reader.hpp"
#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "app/sim/udp_sender.hpp"

namespace sweepline::cli {

namespace fs = std::filesystem;

namespace {

// The folder a new file or folder at `p` goes into ("." for a bare name).
fs::path parent_of(const fs::path& p) {
  const fs::path parent = p.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// Empty when `dir` is an existing folder this process may create files in.
std::string writable_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "folder '" + dir.string() + "' does not exist";
  if (!fs::is_directory(dir, ec)) return "'" + dir.string() + "' is not a folder";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "folder '" + dir.string() + "' is not writable";
  return {};
}

// A plain decimal number in [lo, hi]; false otherwise (signs, spaces, overflow).
bool parse_int(std::string_view s, long long lo, long long hi, long long& out) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= lo && out <= hi;
}

// CLI11 runs a check on a copy of the value and reports a non-empty result as the error.
CLI::Validator check(std::string desc, std::function<std::string(const std::string&)> fn) {
  return CLI::Validator([fn](std::string& v) { return fn(v); }, std::move(desc));
}

}  // namespace

CLI::Validator log_level_check() {
  return CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"});
}

CLI::Validator output_file_check() {
  return check("FILE", [](const std::string& v) -> std::string {
    if (v.empty()) return "empty file name";
    const fs::path p(v);
    std::error_code ec;
    if (fs::is_directory(p, ec)) return "'" + v + "' is a folder, not a file";
    const std::string why = writable_folder(parent_of(p));
    return why.empty() ? std::string() : "cannot write '" + v + "': " + why;
  });
}

CLI::Validator output_folder_check() {
  return check("DIR", [](const std::string& v) -> std::string {
    if (v.empty()) return "empty folder name";
    const fs::path p(v);
    std::error_code ec;
    if (fs::exists(p, ec)) {
      const std::string why = writable_folder(p);
      return why.empty() ? std::string() : "cannot write into '" + v + "': " + why;
    }
    fs::path n = p.lexically_normal();
    if (!n.has_filename()) n = n.parent_path();  // "out/" names the folder "out"
    const std::string why = writable_folder(parent_of(n));
    return why.empty() ? std::string() : "cannot create '" + v + "': " + why;
  });
}

CLI::Validator ipv4_check() {
  return check("IPV4", [](const std::string& v) -> std::string {
    try {
      capture::parse_ipv4(v);
      return {};
    } catch (const Error&) {
      return "'" + v + "' is not a dotted IPv4 address";
    }
  });
}

CLI::Validator endpoint_check() {
  return check("GROUP:PORT", [](const std::string& v) -> std::string {
    try {
      uint32_t ip = 0;
      uint16_t port = 0;
      sim::parse_endpoint(v, ip, port);  // what the simulator will use
      return {};
    } catch (const Error&) {
      return "'" + v + "' is not GROUP:PORT (IPv4 address, port 1..65535, e.g. 239.0.1.2:8600)";
    }
  });
}

CLI::Validator non_negative_check() {
  return check("NUMBER>=0", [](const std::string& v) -> std::string {
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    const bool ok = !v.empty() && end == v.c_str() + v.size() && std::isfinite(d) && d >= 0;
    return ok ? std::string() : "must be a number >= 0, got '" + v + "'";
  });
}

namespace {

// Empty when `text` is a valid size (then in w, h), else why not.
std::string image_size_error(const std::string& text, long long& w, long long& h) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos ||
      !parse_int(std::string_view(text).substr(0, x), 1, kMaxImageSide, w) ||
      !parse_int(std::string_view(text).substr(x + 1), 1, kMaxImageSide, h))
    return "size must be WxH with each side 1.." + std::to_string(kMaxImageSide) +
           " (docs/limits.md), got '" + text + "'";
  if (w * h > kMaxImagePixels)
    return "size " + text + " has more than the limit of " + std::to_string(kMaxImagePixels) +
           " pixels (docs/limits.md)";
  return {};
}

}  // namespace

CLI::Validator image_size_check() {
  return check("WxH", [](const std::string& v) {
    long long w = 0, h = 0;
    return image_size_error(v, w, h);
  });
}

std::pair<int, int> parse_image_size(const std::string& text) {
  long long w = 0, h = 0;
  const std::string why = image_size_error(text, w, h);
  SWL_CHECK(why.empty(), why);
  return {static_cast<int>(w), static_cast<int>(h)};
}

}  // namespace sweepline::cli
