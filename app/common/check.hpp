#pragma once
// Errors at the library boundary are exceptions carrying where they came from; destructors use
// the non-throwing twin, which logs instead.
#include <stdexcept>
#include <string>

namespace sweepline {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_error(const char* file, int line, const std::string& message);
void log_error_nothrow(const char* file, int line, const std::string& message) noexcept;

}  // namespace sweepline

#define SWL_CHECK(cond, msg)                                                  \
  do {                                                                        \
    if (!(cond)) ::sweepline::throw_error(__FILE__, __LINE__, std::string(msg)); \
  } while (0)

#define SWL_CHECK_NOTHROW(cond, msg)                                                   \
  do {                                                                                 \
    if (!(cond)) ::sweepline::log_error_nothrow(__FILE__, __LINE__, std::string(msg)); \
  } while (0)
