#pragma once
// CLI11 checks for option values the commands share: refused while the command line is parsed
// (exit status 2), with a message that names the option, before any work starts.
#include <CLI/CLI.hpp>

#include <string>
#include <utility>

namespace sweepline::cli {

// spdlog level names: trace, debug, info, warn, error, critical, off.
CLI::Validator log_level_check();
// A file to create or append to: its folder exists and is writable, and it is not a folder.
CLI::Validator output_file_check();
// A folder to write into: it exists, or its parent does (one level is created); writable.
CLI::Validator output_folder_check();
// A dotted IPv4 address.
CLI::Validator ipv4_check();
// GROUP:PORT (IPv4 address, port 1..65535).
CLI::Validator endpoint_check();
// A finite number >= 0 (also for unsigned options: CLI11 would read "-1" as 2^64 - 1).
CLI::Validator non_negative_check();
// WxH within the image limits of app/common/image_io.hpp.
CLI::Validator image_size_check();

// Parses WxH (decimal, no sign, no wrap) and checks it against the image limits; throws
// sweepline::Error naming the limit.
std::pair<int, int> parse_image_size(const std::string& text);

}  // namespace sweepline::cli
