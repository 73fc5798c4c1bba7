#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <vector>

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
  std::ofstream(path, std::ios::binary) << "P5\n# made by hand\n2 1\n# another\n255\n"
                                        << char(7) << char(9);
  Image8 img = read_image(path);
  ASSERT_EQ(img.width, 2);
  EXPECT_EQ(img.at(0, 0), 7);
  EXPECT_EQ(img.at(1, 0), 9);
}

TEST(ImageIo, MalformedFilesAreClearErrors) {
  EXPECT_THROW(read_image(temp_path("does_not_exist.pgm")), Error);
  const struct {
    const char* name;
    const char* bytes;
  } malformed[] = {
      {"trunc.pgm", "P5\n10 10\n255\nabc"},
      {"huge.pgm", "P5\n2000000000 2000000000\n255\n"},
      {"sixteen.pgm", "P5\n1 1\n65535\n\1\1"},
      {"junk.bin", "hello world"},
  };
  for (const auto& f : malformed) {
    const auto path = temp_path(f.name);
    std::ofstream(path, std::ios::binary) << f.bytes;
    EXPECT_THROW(read_image(path), Error) << f.name;
  }
}

// Hostile images: every size a file states is checked before anything is allocated, and the
// decoder's failures are errors, never crashes (docs/limits.md).
namespace {

uint32_t crc32(const std::string& bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

std::string be32(uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
  return be32(uint32_t(data.size())) + type + data + be32(crc32(type + data));
}

const std::string kPngSignature = "\x89PNG\r\n\x1a\n";

// A PNG from its header fields and IDAT payloads (one chunk each).
std::string png(uint32_t w, uint32_t h, int depth, int color,
                const std::vector<std::string>& idats) {
  std::string ihdr = be32(w) + be32(h) + char(depth) + char(color) + '\0' + '\0' + '\0';
  std::string out = kPngSignature + chunk("IHDR", ihdr);
  for (const auto& d : idats) out += chunk("IDAT", d);
  return out + chunk("IEND", "");
}

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// The message of the Error that decoding `bytes` throws ("" if it does not throw).
std::string decode_error(const std::string& bytes) {
  try {
    decode_image(bytes_of(bytes), "test.png");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace

TEST(ImageIo, CorruptDeflateBlockIsAnErrorNotACrash) {
  // Block type 3 (reserved): the decoder fails without a reason of its own.
  const std::string bad = png(8, 8, 8, 0, {std::string("\x78\x9c") + std::string(50, '\xff')});
  const std::string msg = decode_error(bad);
  EXPECT_NE(msg.find("cannot decode PNG"), std::string::npos) << msg;
  // The same after a failure that did leave a reason: that old reason is not reported again.
  EXPECT_NE(decode_error(png(8, 8, 8, 0, {"xx"})), "");
  EXPECT_EQ(decode_error(bad), msg);
  const std::string hostile =
      std::string(SWEEPLINE_SHARED_DIR) + "/data/hostile/png_corrupt_idat.png";
  if (std::filesystem::exists(hostile)) {
    try {
      read_image(hostile);
      ADD_FAILURE() << "no error for " << hostile;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot decode PNG"), std::string::npos) << e.what();
    }
  }
}

TEST(ImageIo, EmptyIdatChunksAreSkipped) {
  const Image8 img = random_image(9, 7, 3);
  const auto path = temp_path("empty_idat.png");
  write_png(path, img);
  const std::string file = slurp(path);
  // Put an empty IDAT before the first IDAT and another after it.
  const size_t idat = file.find("IDAT") - 4;
  const uint32_t len = (uint8_t(file[idat]) << 24) | (uint8_t(file[idat + 1]) << 16) |
                       (uint8_t(file[idat + 2]) << 8) | uint8_t(file[idat + 3]);
  const size_t after = idat + 12 + len;
  const std::string with_empty = file.substr(0, idat) + chunk("IDAT", "") +
                                 file.substr(idat, after - idat) + chunk("IDAT", "") +
                                 file.substr(after);
  EXPECT_EQ(decode_image(bytes_of(with_empty), "empty_idat.png"), img);
}

TEST(ImageIo, MemoryAndFileReadTheSame) {
  const Image8 img = random_image(31, 17, 4);
  for (const char* name : {"same.png", "same.pgm"}) {
    const auto path = temp_path(name);
    write_image(path, img);
    EXPECT_EQ(decode_image(bytes_of(slurp(path)), name), img) << name;
    EXPECT_EQ(read_image(path), img) << name;
  }
}

TEST(ImageIo, SizesBeyondTheLimitsAreRefusedWithTheLimit) {
  const std::string tiny_idat = std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8);
  auto expect_error = [&](const std::string& bytes, const std::string& part) {
    const std::string msg = decode_error(bytes);
    EXPECT_NE(msg.find(part), std::string::npos) << "wanted '" << part << "' in: " << msg;
  };
  expect_error(png(32768, 32768, 8, 0, {tiny_idat}), "limit of 16384 pixels a side");
  expect_error(png(16384, 16384, 8, 0, {tiny_idat}), "limit of 67108864 pixels");
  // 8192 x 8192 16-bit RGBA: 512 MiB decoded.
  expect_error(png(8192, 8192, 16, 6, {tiny_idat}), "more than the limit of 256 MiB");
  // A large image with a few bytes of data cannot be filled: refused before decoding.
  expect_error(png(8192, 8192, 8, 0, {tiny_idat}), "PNG data too short");
  expect_error(png(0, 5, 8, 0, {tiny_idat}), "bad PNG size");
  expect_error(png(8, 8, 8, 5, {tiny_idat}), "unsupported PNG colour type");
  expect_error(png(8, 8, 3, 0, {tiny_idat}), "unsupported PNG bit depth");
  expect_error(kPngSignature + chunk("IHDR", std::string(13, '\0')).substr(0, 20), "truncated PNG");
  expect_error(kPngSignature + chunk("IDAT", "x"), "no IHDR first");
}

TEST(ImageIo, PgmDataLengthIsCheckedBeforeAllocating) {
  auto pgm_error = [](const std::string& bytes) {
    try {
      decode_image(bytes_of(bytes), "test.pgm");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // The hostile sample: 119 bytes claiming 32768 x 32768.
  std::string msg = pgm_error("P5\n32768 32768\n255\n" + std::string(100, '\0'));
  EXPECT_NE(msg.find("limit of 16384 pixels a side"), std::string::npos) << msg;
  msg = pgm_error("P5\n8192 8192\n255\n" + std::string(100, '\0'));
  EXPECT_NE(msg.find("the header says 8192x8192 (67108864 bytes), the file holds 100"),
            std::string::npos)
      << msg;
  msg = pgm_error("P5\n12000 6000\n255\n");
  EXPECT_NE(msg.find("limit of 67108864 pixels"), std::string::npos) << msg;
  const std::string hostile =
      std::string(SWEEPLINE_SHARED_DIR) + "/data/hostile/pgm_32768x32768_trunc.pgm";
  if (std::filesystem::exists(hostile)) {
    EXPECT_THROW(read_image(hostile), Error);
  }
}

TEST(ImageIo, OnlyRegularFilesAreRead) {
  try {
    read_image("/dev/null");
    ADD_FAILURE() << "read /dev/null";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}
