#include <string>

#include "app/common/check.hpp"
#include "gpu/ccl/ccl.hpp"

namespace sweepline::ccl {

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::Fast: return "fast";
    case Algorithm::Kang: return "kang";
    case Algorithm::Propagate: return "propagate";
  }
  return "?";
}

Algorithm algorithm_from_string(const std::string& s) {
  if (s == "fast") return Algorithm::Fast;
  if (s == "kang") return Algorithm::Kang;
  if (s == "propagate") return Algorithm::Propagate;
  SWL_CHECK(false, "unknown labelling algorithm '" + s + "' (fast, kang, propagate)");
  return Algorithm::Fast;
}

const char* to_string(BoxMethod m) {
  switch (m) {
    case BoxMethod::Atomic: return "atomic";
    case BoxMethod::LockPerBox: return "alg6";
    case BoxMethod::LockPerCoordinate: return "alg7";
  }
  return "?";
}

BoxMethod box_method_from_string(const std::string& s) {
  if (s == "atomic") return BoxMethod::Atomic;
  if (s == "alg6") return BoxMethod::LockPerBox;
  if (s == "alg7") return BoxMethod::LockPerCoordinate;
  SWL_CHECK(false, "unknown bounding-box method '" + s + "' (atomic, alg6, alg7)");
  return BoxMethod::Atomic;
}

}  // namespace sweepline::ccl
