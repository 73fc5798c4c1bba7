// The synthetic test images: deterministic, the right shape, and the spirals/stars properties
// the papers' tests rely on.
#include <gtest/gtest.h>

#include "app/common/check.hpp"
#include "app/sim/test_images.hpp"
#include "tests/support/ccl_oracle.hpp"

using namespace sweepline;

TEST(TestImages, RandomDensityAndDeterminism) {
  Image8 a = sim::make_test_image("random:0.3", 400, 300, 42);
  Image8 b = sim::make_test_image("random:0.3", 400, 300, 42);
  Image8 c = sim::make_test_image("random:0.3", 400, 300, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  size_t on = 0;
  for (auto p : a.pixels) {
    ASSERT_TRUE(p == 0 || p == 255);
    on += p ? 1 : 0;
  }
  EXPECT_NEAR(double(on) / double(a.size()), 0.3, 0.01);
  EXPECT_EQ(sim::make_test_image("random:0", 10, 10, 1), Image8(10, 10, 0));
  EXPECT_EQ(sim::make_test_image("random:1", 10, 10, 1), Image8(10, 10, 255));
}

TEST(TestImages, SpiralsAreTwoComponentsEvenEightConnected) {
  for (int size : {128, 512, 1024}) {
    Image8 img = sim::make_test_image("spirals", size, size, 0);
    ccl::LabelParams p;
    p.connectivity = 8;
    auto r = test::oracle_label(img, p);
    EXPECT_EQ(r.components.size(), 2u) << size;
    // Long: each arm is far larger than its bounding box's side.
    for (const auto& c : r.components) EXPECT_GT(c.area, int64_t(size) * 2) << size;
  }
}

TEST(TestImages, StarsHaveOneLinkedPair) {
  Image8 img = sim::make_test_image("stars", 512, 512, 9);
  ccl::LabelParams p;
  p.connectivity = 8;
  auto r8 = test::oracle_label(img, p);
  // One star fewer than drawn with 8-connectivity: the linked pair is one component, and it is
  // the only component wider than a star could be (stars fit in 29x29 boxes).
  int wide = 0;
  for (const auto& c : r8.components) wide += (c.xmax - c.xmin > 30) ? 1 : 0;
  EXPECT_EQ(wide, 1);
  EXPECT_GT(r8.components.size(), 50u);
}

TEST(TestImages, VesselsAreExactlyNComponents) {
  for (int n : {1, 50, 1869}) {
    Image8 img = sim::make_test_image("vessels:" + std::to_string(n), 4096 / 4, 4096 / 4, 3);
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      EXPECT_EQ(test::oracle_label(img, p).components.size(), size_t(n)) << n << " " << conn;
    }
  }
}

TEST(TestImages, BadSpecsThrow) {
  for (const char* s : {"random:", "random:1.5", "random:-0.1", "random:x", "spiral", "", "nan",
                        "vessels:", "vessels:-1", "vessels:3x"})
    EXPECT_THROW(sim::make_test_image(s, 10, 10, 0), Error) << s;
  EXPECT_THROW(sim::make_test_image("spirals", 0, 10, 0), Error);
  EXPECT_THROW(sim::make_test_image("stars", 10, -1, 0), Error);
}
