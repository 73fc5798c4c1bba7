// Every validation path of the decoder: the bad record (or the rest of the block when framing is
// lost) is skipped and counted by reason; nothing else is lost.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <zlib.h>

#include <sstream>

#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "tests/app/asterix/cat240_bytes.hpp"

namespace sweepline::cat240 {
namespace {

using namespace test;  // Bytes, cat, block, layout_items

const Bytes kSummary = {0xD0, 0x01, 0x02, 0x01, 0x02, 'o', 'k'};

// Hand-built video record: nano header, given RES / NB_VB / NB_CELLS and a video item.
Bytes video(uint8_t c_flag, uint8_t res, uint16_t nb_vb, uint32_t nb_cells, uint8_t rep,
            const Bytes& octets) {
  Bytes r = {0xEB, 0xC0, 0x07, 0x09, 0x02, 0, 0, 0,
             1,  // 010 000 020 040 048 | 049 050
             0x10, 0x00, 0x10, 0x00, 0,    0, 0, 0, 0, 0, 0, 100};
  return cat({r, layout_items(c_flag, res, nb_vb, nb_cells), {rep}, octets});
}
const Bytes kGoodVideo = video(0, 4, 4, 4, 1, {1, 2, 3, 4});

struct Outcome {
  std::vector<Record> recs;
  DecodeStats stats;
};
Outcome run(const Bytes& b) {
  Decoder d(DecoderOptions{.log_errors = false});
  Outcome o;
  d.decode(b, 0, o.recs);
  o.stats = d.stats();
  return o;
}
uint64_t errors(const Outcome& o, const char* why) {
  auto it = o.stats.errors.find(why);
  return it == o.stats.errors.end() ? 0 : it->second;
}

TEST(Cat240Errors, GoodRecordsDecodeCleanly) {
  const auto o = run(block(cat({kGoodVideo, kSummary})));
  ASSERT_EQ(o.recs.size(), 2u);
  EXPECT_EQ(o.recs[0].cells, (Bytes{1, 2, 3, 4}));
  EXPECT_EQ(o.stats.error_count(), 0u);
}

TEST(Cat240Errors, TruncatedBufferAndBadLen) {
  Bytes b = block(kGoodVideo);
  b.pop_back();  // LEN says one more byte than present
  auto o = run(b);
  EXPECT_TRUE(o.recs.empty());
  EXPECT_EQ(errors(o, reason::kBlockTruncated), 1u);
  EXPECT_EQ(errors(run({0xF0, 0x00}), reason::kBlockTruncated), 1u);
  EXPECT_EQ(errors(run({0xF0, 0x00, 0x02, 0xD0}), reason::kBadBlockLen), 1u);
  // A good block followed by garbage: the good block still decodes.
  o = run(cat({block(kSummary), {0xF0, 0xFF, 0xFF, 0x00}}));
  EXPECT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(errors(o, reason::kBlockTruncated), 1u);
}

TEST(Cat240Errors, OtherCategoryBlocksAreSkippedByTheirLen) {
  const Bytes cat48 = {48, 0x00, 0x05, 0x80, 0x01};
  const auto o = run(cat({cat48, block(kSummary)}));
  ASSERT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(errors(o, reason::kNotCat240), 1u);
}

TEST(Cat240Errors, FspecRunningOffAndUnknownItems) {
  auto o = run(block({0xFF}));  // FX set, no second octet
  EXPECT_EQ(errors(o, reason::kFspec), 1u);
  o = run(block({0x01, 0x01, 0x80, 0x00, 0x00}));  // FRN 15 does not exist in the UAP
  EXPECT_EQ(errors(o, reason::kUnknownItem), 1u);
  o = run(block({0x01, 0x01, 0x00}));  // empty third octet: 010/000 missing
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
}

TEST(Cat240Errors, ItemRunningOffTheBlockDropsTheRestOfTheBlock) {
  Bytes cut(kGoodVideo.begin(), kGoodVideo.begin() + 15);  // inside I240/040
  const auto o = run(cat({block(cut), block(kSummary)}));
  ASSERT_EQ(o.recs.size(), 1u);  // the next block is still read
  EXPECT_EQ(errors(o, reason::kItemTruncated), 1u);
}

TEST(Cat240Errors, BadRepetitionFactors) {
  // REP 200 of 4 octets runs off the block: framing lost, the summary after it is not reached.
  auto o = run(block(cat({video(0, 4, 4, 4, 200, {1, 2, 3, 4}), kSummary})));
  EXPECT_TRUE(o.recs.empty());
  EXPECT_EQ(errors(o, reason::kBadRep), 1u);
  // REP 0: framing is intact, only this record is skipped.
  o = run(block(cat({video(0, 4, 0, 0, 0, {}), kSummary})));
  ASSERT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(o.recs[0].type, MessageType::Summary);
  EXPECT_EQ(errors(o, reason::kBadRep), 1u);
  // I240/030 REP beyond the block.
  o = run(block({0xD0, 0x01, 0x02, 0x01, 0x09, 'x'}));
  EXPECT_EQ(errors(o, reason::kBadRep), 1u);
}

TEST(Cat240Errors, CountersAgainstTheVideoBlock) {
  // NB_CELLS 100 at 8 bits with 4 octets: skipped, the next record decodes.
  auto o = run(block(cat({video(0, 4, 4, 100, 1, {1, 2, 3, 4}), kSummary})));
  ASSERT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(errors(o, reason::kBadCounters), 1u);
  // NB_VB beyond the video block.
  o = run(block(video(0, 4, 9, 4, 1, {1, 2, 3, 4})));
  EXPECT_EQ(errors(o, reason::kBadCounters), 1u);
  // NB_VB smaller than the cells need.
  o = run(block(video(0, 5, 4, 4, 2, {1, 2, 3, 4, 5, 6, 7, 8})));
  EXPECT_EQ(errors(o, reason::kBadCounters), 1u);
  // Huge NB_CELLS in a compressed record: rejected before any allocation.
  o = run(block(video(0x80, 6, 4, 0xFFFFFF, 1, {1, 2, 3, 4})));
  EXPECT_EQ(errors(o, reason::kBadCounters), 1u);
  // Padding after NB_VB is fine: 3 cells in 4 octets.
  o = run(block(video(0, 4, 3, 3, 1, {9, 8, 7, 0xEE})));
  ASSERT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(o.recs[0].cells, (Bytes{9, 8, 7}));
}

TEST(Cat240Errors, BadResolutionAndMessageType) {
  auto o = run(block(video(0, 7, 4, 4, 1, {1, 2, 3, 4})));
  EXPECT_EQ(errors(o, reason::kBadResolution), 1u);
  o = run(block(video(0, 0, 4, 4, 1, {1, 2, 3, 4})));
  EXPECT_EQ(errors(o, reason::kBadResolution), 1u);
  Bytes t = kSummary;
  t[3] = 3;  // I240/000 = 3
  o = run(block(t));
  EXPECT_EQ(errors(o, reason::kBadMessageType), 1u);
}

Bytes zlib(const Bytes& plain) {
  Bytes z(compressBound(plain.size()));
  uLongf n = z.size();
  EXPECT_EQ(compress(z.data(), &n, plain.data(), plain.size()), Z_OK);
  z.resize(n);
  return z;
}
Bytes padded(Bytes b) {
  b.resize((b.size() + 3) / 4 * 4, 0);
  return b;
}

TEST(Cat240Errors, ZlibBombWrongLengthAndCorruptStreams) {
  // 512 KB of zeros compresses to about 520 octets; NB_CELLS says 10: stopped after 11 octets.
  const Bytes bomb = zlib(Bytes(1 << 19, 0));
  ASSERT_LT(bomb.size(), 1020u);
  const auto rep = static_cast<uint8_t>((bomb.size() + 3) / 4);
  auto o = run(block(video(0x80, 4, static_cast<uint16_t>(bomb.size()), 10, rep, padded(bomb))));
  EXPECT_TRUE(o.recs.empty());
  EXPECT_EQ(errors(o, reason::kDecompress), 1u);
  // Too short: 8 octets inflated, 16 cells expected.
  const Bytes small = zlib(Bytes(8, 0x55));
  const auto rep2 = static_cast<uint8_t>((small.size() + 3) / 4);
  o = run(block(video(0x80, 4, static_cast<uint16_t>(small.size()), 16, rep2, padded(small))));
  EXPECT_EQ(errors(o, reason::kDecompress), 1u);
  // Exactly right: decodes.
  o = run(block(video(0x80, 4, static_cast<uint16_t>(small.size()), 8, rep2, padded(small))));
  ASSERT_EQ(o.recs.size(), 1u);
  EXPECT_EQ(o.recs[0].cells, Bytes(8, 0x55));
  // Corrupt stream.
  Bytes bad = small;
  bad[2] ^= 0xFF;
  bad[3] ^= 0xFF;
  o = run(block(video(0x80, 4, static_cast<uint16_t>(bad.size()), 8, rep2, padded(bad))));
  EXPECT_EQ(errors(o, reason::kDecompress), 1u);
}

TEST(Cat240Errors, MissingMandatoryItems) {
  // Video without I240/049 (FSPEC octet 2 = 0x40 only: 050).
  Bytes v = kGoodVideo;
  v[1] = 0x40;
  v.erase(v.begin() + 23, v.begin() + 28);
  auto o = run(block(v));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
  // Video without a video block item (octet 2 = 0x80: 049 only).
  Bytes nv(kGoodVideo.begin(), kGoodVideo.begin() + 28);
  nv[1] = 0x80;
  o = run(block(nv));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
  // Video without I240/020.
  Bytes n20 = kGoodVideo;
  n20[0] &= ~0x20;
  n20.erase(n20.begin() + 5, n20.begin() + 9);
  o = run(block(n20));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
  // Summary without I240/030, without I240/010, without I240/000.
  o = run(block({0xC0, 0x01, 0x02, 0x01}));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
  o = run(block({0x50, 0x01, 0x01, 'a'}));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
  o = run(block({0x90, 0x01, 0x02, 0x01, 'a'}));
  EXPECT_EQ(errors(o, reason::kMissingItem), 1u);
}

TEST(Cat240Errors, ItemsThatDoNotBelong) {
  // Summary carrying a video header.
  Bytes s = {0xD8, 0x01, 0x02, 0x01, 0x01, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  auto o = run(block(s));
  EXPECT_EQ(errors(o, reason::kUnexpectedItem), 1u);
  // Video with both I240/040 and I240/041.
  Bytes v = kGoodVideo;
  v[0] |= 0x04;
  v.insert(v.begin() + 21, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  o = run(block(cat({v, kSummary})));
  EXPECT_EQ(errors(o, reason::kUnexpectedItem), 1u);
  EXPECT_EQ(o.recs.size(), 1u);
}

TEST(Cat240Errors, ExplicitFieldWithZeroLength) {
  Bytes s = {0xD1, 0x04, 0x01, 0x02, 0x01, 0x01, 'a', 0x00};  // RE with length 0
  auto o = run(block(cat({s, kSummary})));
  EXPECT_EQ(errors(o, reason::kBadExplicitLen), 1u);
  EXPECT_TRUE(o.recs.empty());
  Bytes sp = {0xD1, 0x02, 0x01, 0x02, 0x01, 0x01, 'a', 0x09, 0x00};  // SP longer than the block
  o = run(block(sp));
  EXPECT_EQ(errors(o, reason::kItemTruncated), 1u);
}

TEST(Cat240Errors, StatsAccumulateAcrossCalls) {
  Decoder d(DecoderOptions{.log_errors = false});
  std::vector<Record> out;
  for (int i = 0; i < 3; ++i) d.decode(Bytes{0xF0, 0x00}, 0, out);
  d.decode(block(kSummary), 0, out);
  EXPECT_EQ(d.stats().errors.at(reason::kBlockTruncated), 3u);
  EXPECT_EQ(d.stats().buffers, 4u);
  EXPECT_EQ(d.stats().records, 1u);
  d.reset_stats();
  EXPECT_EQ(d.stats().error_count(), 0u);
}

TEST(Cat240Errors, EachReasonIsLoggedAtMostOncePerSecond) {
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  auto logger = std::make_shared<spdlog::logger>(
      "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  spdlog::set_default_logger(logger);
  Decoder d;  // logging on
  std::vector<Record> out;
  for (int i = 0; i < 1000; ++i) {
    d.decode(Bytes{0xF0, 0x00}, 0, out);        // block_truncated
    d.decode(Bytes{0xF0, 0x00, 0x02}, 0, out);  // bad_block_len
  }
  spdlog::set_default_logger(previous);
  const std::string text = log.str();
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  // 2000 decodes take far less than a second; allow one more line for a slow machine.
  EXPECT_GE(count("block_truncated"), 1u);
  EXPECT_LE(count("block_truncated"), 2u);
  EXPECT_GE(count("bad_block_len"), 1u);
  EXPECT_LE(count("bad_block_len"), 2u);
  EXPECT_EQ(d.stats().errors.at(reason::kBlockTruncated), 1000u);
}

}  // namespace
}  // namespace sweepline::cat240
