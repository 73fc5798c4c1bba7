#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "app/common/check.hpp"
#include "app/common/image_io.hpp"

using namespace sweepline;

namespace {
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("swl_" + name)).string();
}
Image8 random_image(int w, int h, unsigned seed) {
  Image8 img(w, h);
  std::mt19937 rng(seed);
  for (auto& p : img.pixels) p = uint8_t(rng());
  return img;
}
}  // namespace

TEST(ImageIo, PgmRoundTrip) {
  Image8 img = random_image(37, 11, 1);
  auto path = temp_path("rt.pgm");
  write_pgm(path, img);
  EXPECT_EQ(read_image(path), img);
}

TEST(ImageIo, PngRoundTrip) {
  Image8 img = random_image(5, 300, 2);
  auto path = temp_path("rt.png");
  write_png(path, img);
  EXPECT_EQ(read_image(path), img);
}

TEST(ImageIo, PgmWithCommentsInHeader) {
  auto path = temp_path("comment.pgm");
  std::ofstream(path, std::ios::binary) << "P5\n# made by hand\n2 1\n# another\n255\n" << char(7) << char(9);
  Image8 img = read_image(path);
  ASSERT_EQ(img.width, 2);
  EXPECT_EQ(img.at(0, 0), 7);
  EXPECT_EQ(img.at(1, 0), 9);
}

TEST(ImageIo, MalformedFilesAreClearErrors) {
  EXPECT_THROW(read_image(temp_path("does_not_exist.pgm")), Error);
  auto trunc = temp_path("trunc.pgm");
  std::ofstream(trunc, std::ios::binary) << "P5\n10 10\n255\nabc";
  EXPECT_THROW(read_image(trunc), Error);
  auto huge = temp_path("huge.pgm");
  std::ofstream(huge, std::ios::binary) << "P5\n2000000000 2000000000\n255\n";
  EXPECT_THROW(read_image(huge), Error);
  auto sixteen = temp_path("sixteen.pgm");
  std::ofstream(sixteen, std::ios::binary) << "P5\n1 1\n65535\n\1\1";
  EXPECT_THROW(read_image(sixteen), Error);
  auto junk = temp_path("junk.bin");
  std::ofstream(junk, std::ios::binary) << "hello world";
  EXPECT_THROW(read_image(junk), Error);
}
