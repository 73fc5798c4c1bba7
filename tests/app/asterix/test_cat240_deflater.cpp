// The CAT240 encoder's reused zlib state (cat240::Deflater) gives compress2's bytes exactly, record
// after record, and an encoding with it equals one without.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"

namespace sweepline::cat240 {
namespace {

std::vector<uint8_t> by_compress2(const std::vector<uint8_t>& in) {
  uLongf n = compressBound(uLong(in.size()));
  std::vector<uint8_t> out(n);
  EXPECT_EQ(compress2(out.data(), &n, in.data(), uLong(in.size()), Z_DEFAULT_COMPRESSION), Z_OK);
  out.resize(n);
  return out;
}

TEST(Cat240Deflater, SameBytesAsCompress2RecordAfterRecord) {
  std::mt19937 rng(7);
  Deflater d;
  std::vector<uint8_t> out;
  for (int k = 0; k < 50; ++k) {
    // Radar-like octets: mostly low noise with a few strong runs; sizes from empty to 16 KB.
    std::vector<uint8_t> in(size_t(rng() % 16384) * (k % 7 == 0 ? 0 : 1));
    for (auto& v : in) v = uint8_t(rng() % 100 < 90 ? rng() % 8 : 200 + rng() % 56);
    d.compress(in, out);
    EXPECT_EQ(out, by_compress2(in)) << "record " << k << ", " << in.size() << " octets";
  }
}

TEST(Cat240Deflater, EncodingWithAReusedStateEqualsOneWithout) {
  Record r;
  r.type = MessageType::Video;
  r.header = VideoHeader{};
  r.res_bits = 4;
  r.cells.resize(1024);
  for (size_t i = 0; i < r.cells.size(); ++i) r.cells[i] = uint8_t((i * 37) % 251);
  EncodeOptions plain;
  plain.compress = true;
  EncodeOptions reused = plain;
  Deflater d;
  reused.deflater = &d;
  for (int k = 0; k < 3; ++k) {
    r.cells[size_t(k)] = 255;
    EXPECT_EQ(encode_block(r, reused), encode_block(r, plain));
  }
}

}  // namespace
}  // namespace sweepline::cat240
