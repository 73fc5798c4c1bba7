// Label colours that stay with a component across frames (render/stable_labels.hpp): the
// labeller renumbers, the colours must not follow the numbers.
#include <gtest/gtest.h>

#include "gpu/pipeline.hpp"
#include "render/stable_labels.hpp"

using namespace sweepline;
using namespace sweepline::render;

namespace {

// A 64 x 64 label image with square blobs: (label, x, y, side).
struct Sq {
  int32_t label, x, y, side;
};
ImageI32 image(std::initializer_list<Sq> squares) {
  ImageI32 img(64, 64, 0);
  for (const Sq& s : squares)
    for (int y = s.y; y < s.y + s.side; ++y)
      for (int x = s.x; x < s.x + s.side; ++x) img.pixels[size_t(y) * 64 + size_t(x)] = s.label;
  return img;
}

}  // namespace

TEST(StableLabels, RenumberedBlobsKeepTheirIdentityAndNewOnesGetANewOne) {
  StableLabels st;
  const auto a = st.update(image({{1, 5, 5, 6}, {2, 40, 40, 4}}));
  const int32_t big = a[1], small = a[2];
  EXPECT_NE(big, small);
  // Next frame: numbered the other way round, the small one moved 2 px, and a third appears.
  const auto b = st.update(image({{1, 42, 40, 4}, {2, 5, 5, 6}, {3, 20, 50, 3}}));
  EXPECT_EQ(b[2], big);
  EXPECT_EQ(b[1], small);
  EXPECT_NE(b[3], big);
  EXPECT_NE(b[3], small);
  std::vector<uint32_t> rgba;
  st.colours(image({{1, 42, 40, 4}, {2, 5, 5, 6}, {3, 20, 50, 3}}), rgba);
  EXPECT_EQ(rgba[size_t(6) * 64 + 6], gpu::label_colour(big));
  EXPECT_EQ(rgba[0], 0u);  // background stays transparent
}

TEST(StableLabels, AFarJumpIsANewComponent) {
  StableLabels st;
  const int32_t first = st.update(image({{1, 5, 5, 4}}))[1];
  EXPECT_EQ(first, 1);  // a new component's identity is its label while that is free
  // The blob stays (now label 2); one far away takes label 1 and so a new identity.
  const auto ids = st.update(image({{1, 50, 50, 4}, {2, 6, 5, 4}}));
  EXPECT_EQ(ids[2], first);
  EXPECT_NE(ids[1], first);
}
