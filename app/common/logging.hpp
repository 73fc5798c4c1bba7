#pragma once
#include <string>

namespace sweepline {

// Console logging at the given level (trace, debug, info, warn, error, critical, off); with a
// path, also a rotating log file (5 files of 5 MB). Throws sweepline::Error for an unknown level
// or a log file that cannot be opened: a requested log is never dropped silently.
void setup_logging(const std::string& level, const std::string& file_path = {});

}  // namespace sweepline
