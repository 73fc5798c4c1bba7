#pragma once
// The sample captures in ../shared/data (beside the checkout, as on CI). Tests that read them
// skip with the reason where that folder is absent (a copy of the tree elsewhere).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace sweepline::test {

inline std::string shared_data_dir() {
  return std::string(SWEEPLINE_SHARED_DIR) + "/data";
}

}  // namespace sweepline::test

#define SWL_SKIP_WITHOUT_SHARED_DATA()                                        \
  do {                                                                        \
    if (!std::filesystem::is_directory(::sweepline::test::shared_data_dir())) \
      GTEST_SKIP() << "shared sample data not found under "                   \
                   << ::sweepline::test::shared_data_dir();                   \
  } while (0)
