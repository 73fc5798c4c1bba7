#pragma once
#include <string>

namespace sweepline {

// Console logging at the given level ("trace".."off"); with a path, also a rotating log file
// (5 files of 5 MB).
void setup_logging(const std::string& level, const std::string& file_path = {});

}  // namespace sweepline
