// Short warnings in the panels (ui/short_text.hpp).
#include <gtest/gtest.h>

#include "ui/short_text.hpp"

using sweepline::ui::short_text;

TEST(ShortText, FirstSentenceOfTheFirstLineCutToFit) {
  EXPECT_EQ(short_text("CUDA unavailable. Build with nvcc.\nSecond line", 60), "CUDA unavailable.");
  EXPECT_EQ(short_text("one line only", 60), "one line only");
  EXPECT_EQ(short_text("first\nsecond\nthird", 60), "first");
  const std::string cut = short_text(std::string(100, 'x'), 20);
  EXPECT_EQ(cut.size(), 20u);
  EXPECT_EQ(cut.substr(17), "...");
}
