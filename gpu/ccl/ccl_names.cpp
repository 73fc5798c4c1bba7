#include <string>

#include "app/common/name_table.hpp"
#include "gpu/ccl/ccl.hpp"

namespace sweepline::ccl {

namespace {

constexpr NameTable<Algorithm, 3> kAlgorithms{
    {{Algorithm::Fast, "fast"}, {Algorithm::Kang, "kang"}, {Algorithm::Propagate, "propagate"}}};
constexpr NameTable<BoxMethod, 3> kBoxMethods{{{BoxMethod::Atomic, "atomic"},
                                               {BoxMethod::LockPerBox, "alg6"},
                                               {BoxMethod::LockPerCoordinate, "alg7"}}};

}  // namespace

const char* to_string(Algorithm a) {
  return name_of(kAlgorithms, a);
}

Algorithm algorithm_from_string(const std::string& s) {
  return value_of(kAlgorithms, s, "unknown labelling algorithm");
}

const char* to_string(BoxMethod m) {
  return name_of(kBoxMethods, m);
}

BoxMethod box_method_from_string(const std::string& s) {
  return value_of(kBoxMethods, s, "unknown bounding-box method");
}

}  // namespace sweepline::ccl
