// CAT048: hand-computed byte vectors, encoder -> decoder round trips over the full value ranges,
// the encoder's refusals, datagram splitting, and every validation path of the decoder.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/asterix/cat048_decoder.hpp"
#include "app/asterix/cat048_encoder.hpp"
#include "app/common/check.hpp"
#include "tests/app/asterix/asterix_scene.hpp"

namespace sweepline::cat048 {
namespace {

using asterix::test::block;
using asterix::test::Bytes;
using asterix::test::cat;

TargetReport simple_plot() {
  TargetReport r;
  r.sac = 1;
  r.sic = 2;
  r.tod_s = 1.0;
  r.rho_nm = 10.0;
  r.theta_deg = 90.0;
  return r;
}

TargetReport simple_track() {
  TargetReport r = simple_plot();
  r.plot = PlotCharacteristics{};
  r.plot->prl_deg = 25 * kRunLengthLsbDeg;
  r.plot->pam_dbm = -10;
  r.track_number = 0x123;
  r.x_nm = 1.0;
  r.y_nm = -1.0;
  r.ground_speed_nm_s = 82 * kSpeedLsbNmPerS;
  r.heading_deg = 180.0;
  r.status = TrackStatus{};  // confirmed, PSR track
  return r;
}

// Hand-computed: FSPEC (010 140 020 040 [130] | [161 042 200 170]), SAC SIC, ToD 128 (1 s),
// TYP=1 (PSR, 0x20), RHO 2560 (10 NM), THETA 0x4000 (90 deg).
const Bytes kPlotRecord = {0xF0, 0x01, 0x02, 0x00, 0x00, 0x80, 0x20, 0x0A, 0x00, 0x40, 0x00};
const Bytes kTrackRecord = {0xF3, 0x1E, 0x01, 0x02, 0x00, 0x00, 0x80, 0x20,
                            0x0A, 0x00, 0x40, 0x00, 0x18, 0x19, 0xF6,  // 130: PRL 25, PAM -10 dBm
                            0x01, 0x23,                                // 161
                            0x00, 0x80, 0xFF, 0x80,  // 042: x 128, y -128 (1/128 NM)
                            0x00, 0x52, 0x80, 0x00,  // 200: GSP 82, HDG 0x8000 (180 deg)
                            0x20};                   // 170: CNF 0, RAD 01 (PSR)

struct Outcome {
  std::vector<TargetReport> reports;
  asterix::DecodeStats stats;
};
Outcome run(const Bytes& b) {
  Decoder d(DecoderOptions{.log_errors = false});
  Outcome o;
  d.decode(b, 0, o.reports);
  o.stats = d.stats();
  return o;
}

void expect_close(const TargetReport& want, const TargetReport& got) {
  EXPECT_EQ(want.sac, got.sac);
  EXPECT_EQ(want.sic, got.sic);
  EXPECT_NEAR(std::remainder(want.tod_s - got.tod_s, 86400.0), 0.0, kTodLsbS / 2 + 1e-9);
  EXPECT_EQ(want.descriptor.typ, got.descriptor.typ);
  EXPECT_EQ(want.descriptor.sim, got.descriptor.sim);
  EXPECT_EQ(want.descriptor.tst, got.descriptor.tst);
  EXPECT_NEAR(want.rho_nm, got.rho_nm, kRhoLsbNm / 2 + 1e-9);
  EXPECT_NEAR(std::remainder(want.theta_deg - got.theta_deg, 360.0), 0.0, kThetaLsbDeg / 2 + 1e-9);
  ASSERT_EQ(want.plot.has_value(), got.plot.has_value());
  if (want.plot) {
    EXPECT_NEAR(*want.plot->prl_deg, *got.plot->prl_deg, kRunLengthLsbDeg / 2 + 1e-9);
    EXPECT_EQ(want.plot->pam_dbm, got.plot->pam_dbm);
  }
  EXPECT_EQ(want.track_number, got.track_number);
  ASSERT_EQ(want.x_nm.has_value(), got.x_nm.has_value());
  if (want.x_nm) {
    EXPECT_NEAR(*want.x_nm, *got.x_nm, kCartesianLsbNm / 2 + 1e-9);
    EXPECT_NEAR(*want.y_nm, *got.y_nm, kCartesianLsbNm / 2 + 1e-9);
  }
  ASSERT_EQ(want.ground_speed_nm_s.has_value(), got.ground_speed_nm_s.has_value());
  if (want.ground_speed_nm_s) {
    EXPECT_NEAR(*want.ground_speed_nm_s, *got.ground_speed_nm_s, kSpeedLsbNmPerS / 2 + 1e-12);
    EXPECT_NEAR(std::remainder(*want.heading_deg - *got.heading_deg, 360.0), 0.0,
                kThetaLsbDeg / 2 + 1e-9);
  }
  ASSERT_EQ(want.status.has_value(), got.status.has_value());
  if (want.status) {
    EXPECT_EQ(want.status->tentative, got.status->tentative);
    EXPECT_EQ(want.status->rad, got.status->rad);
    EXPECT_EQ(want.status->mah, got.status->mah);
    EXPECT_EQ(want.status->tre, got.status->tre);
  }
}

TEST(Cat048Vectors, PlotBytesAreTheHandComputedOnes) {
  EXPECT_EQ(encode_block(simple_plot()), block(48, kPlotRecord));
}

TEST(Cat048Vectors, TrackBytesAreTheHandComputedOnes) {
  EXPECT_EQ(encode_block(simple_track()), block(48, kTrackRecord));
}

TEST(Cat048Vectors, DecodesTheHandComputedBytes) {
  const Outcome o = run(block(48, cat({kPlotRecord, kTrackRecord})));
  ASSERT_EQ(o.reports.size(), 2u);
  EXPECT_EQ(o.stats.error_count(), 0u);
  EXPECT_FALSE(o.reports[0].is_track());
  EXPECT_DOUBLE_EQ(o.reports[0].rho_nm, 10.0);
  EXPECT_DOUBLE_EQ(o.reports[0].theta_deg, 90.0);
  EXPECT_DOUBLE_EQ(o.reports[0].tod_s, 1.0);
  const TargetReport& t = o.reports[1];
  ASSERT_TRUE(t.is_track());
  EXPECT_EQ(*t.track_number, 0x123);
  EXPECT_DOUBLE_EQ(*t.x_nm, 1.0);
  EXPECT_DOUBLE_EQ(*t.y_nm, -1.0);
  EXPECT_DOUBLE_EQ(*t.heading_deg, 180.0);
  EXPECT_DOUBLE_EQ(*t.ground_speed_nm_s * kKnotsPerNmPerS, 82.0 * 3600 / 16384);
  EXPECT_EQ(*t.plot->pam_dbm, -10);
  EXPECT_EQ(t.status->rad, 1);
  EXPECT_FALSE(t.status->tentative);
}

TEST(Cat048Vectors, ExtensionOctetsFollowTheFxRule) {
  TargetReport r = simple_track();
  r.descriptor.tst = true;
  r.status->tre = true;
  const Bytes b = encode_block(r);
  // 020 becomes 0x21 0x80 (TST) and 170 0x21 0x80 (TRE).
  EXPECT_EQ(b[3 + 2 + 2 + 3], 0x21);
  EXPECT_EQ(b[3 + 2 + 2 + 3 + 1], 0x80);
  EXPECT_EQ(b[b.size() - 2], 0x21);
  EXPECT_EQ(b.back(), 0x80);
  const Outcome o = run(b);
  ASSERT_EQ(o.reports.size(), 1u);
  EXPECT_TRUE(o.reports[0].descriptor.tst);
  EXPECT_TRUE(o.reports[0].status->tre);
}

TEST(Cat048RoundTrip, RandomScenesWithinHalfAnLsbAndByteExactReEncoding) {
  const auto reports = asterix::test::random_reports(4801, 600);
  const Bytes wire = encode_block(reports);
  const Outcome o = run(wire);
  ASSERT_EQ(o.reports.size(), reports.size());
  EXPECT_EQ(o.stats.error_count(), 0u);
  for (size_t i = 0; i < reports.size(); ++i) {
    SCOPED_TRACE(i);
    expect_close(reports[i], o.reports[i]);
  }
  EXPECT_EQ(encode_block(o.reports), wire);  // decoded values are exact LSB multiples
}

TEST(Cat048Vectors, EmptyPlotCharacteristicsAreNotWritten) {
  TargetReport r = simple_plot();
  r.plot = PlotCharacteristics{};
  EXPECT_EQ(encode_block(r), block(48, kPlotRecord));
}

TEST(Cat048RoundTrip, ThetaJustUnder360IsWrittenAsZero) {
  TargetReport r = simple_plot();
  r.theta_deg = 360.0 - kThetaLsbDeg / 4;
  const Outcome o = run(encode_block(r));
  ASSERT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.reports[0].theta_deg, 0.0);
  r.theta_deg = -90.0;  // any angle is wrapped
  EXPECT_DOUBLE_EQ(run(encode_block(r)).reports.at(0).theta_deg, 270.0);
}

TEST(Cat048Encoder, RefusesWhatTheItemsCannotHold) {
  TargetReport r = simple_track();
  EXPECT_EQ(encode_refusal(r), nullptr);
  auto refused = [](TargetReport t) { return encode_refusal(t) != nullptr; };
  TargetReport t = r;
  t.rho_nm = kMaxRhoNm + kRhoLsbNm;
  EXPECT_TRUE(refused(t));
  t = r;
  t.rho_nm = -1;
  EXPECT_TRUE(refused(t));
  t = r;
  t.theta_deg = NAN;
  EXPECT_TRUE(refused(t));
  t = r;
  t.track_number = 4096;
  EXPECT_TRUE(refused(t));
  t = r;
  t.y_nm.reset();
  EXPECT_TRUE(refused(t));
  t = r;
  t.x_nm = 300;
  EXPECT_TRUE(refused(t));
  t = r;
  t.heading_deg.reset();
  EXPECT_TRUE(refused(t));
  t = r;
  t.ground_speed_nm_s = -0.1;
  EXPECT_TRUE(refused(t));
  t = r;
  t.plot->prl_deg = 12.0;
  EXPECT_TRUE(refused(t));
  t = r;
  t.status->rad = 4;
  EXPECT_TRUE(refused(t));
  t = r;
  t.tod_s = INFINITY;
  EXPECT_TRUE(refused(t));
  // A refused report throws and leaves the buffer as it was.
  t = r;
  t.rho_nm = 1e6;
  Bytes out = {1, 2, 3};
  EXPECT_THROW(append_record(t, out), Error);
  const std::vector<TargetReport> two = {r, t};
  EXPECT_THROW(append_block(two, out), Error);
  EXPECT_EQ(out, (Bytes{1, 2, 3}));
}

TEST(Cat048Encoder, DatagramsKeepUnderTheLimitInOrderAndSkipRefusedReports) {
  auto reports = asterix::test::random_reports(77, 500);
  reports[10].rho_nm = 1e6;  // refused
  size_t refused = 0;
  const auto datagrams = encode_datagrams(reports, 1400, &refused);
  EXPECT_EQ(refused, 1u);
  ASSERT_GT(datagrams.size(), 1u);
  std::vector<TargetReport> got;
  Decoder d(DecoderOptions{.log_errors = false});
  for (const Bytes& g : datagrams) {
    EXPECT_LE(g.size(), 1400u);
    EXPECT_EQ(g[0], 48);
    EXPECT_EQ((size_t{g[1]} << 8) | g[2], g.size());
    d.decode(g, 0, got);
  }
  EXPECT_EQ(d.stats().error_count(), 0u);
  ASSERT_EQ(got.size(), 499u);
  for (size_t i = 0, j = 0; i < reports.size(); ++i) {
    if (i == 10) continue;
    SCOPED_TRACE(i);
    expect_close(reports[i], got[j++]);
  }
  EXPECT_TRUE(encode_datagrams({}, 1400).empty());
  EXPECT_THROW(encode_datagrams(reports, 20), Error);
}

// --- Decoder validation ---------------------------------------------------------------------

TEST(Cat048Errors, BlockFraming) {
  Bytes b = block(48, kPlotRecord);
  Bytes truncated(b.begin(), b.end() - 1);
  Outcome o = run(truncated);
  EXPECT_TRUE(o.reports.empty());
  EXPECT_EQ(o.stats.errors.at("block_truncated"), 1u);
  o = run({48, 0, 2, 0xF0});
  EXPECT_EQ(o.stats.errors.at("bad_block_len"), 1u);
  o = run({48, 0});
  EXPECT_EQ(o.stats.errors.at("block_truncated"), 1u);
}

TEST(Cat048Errors, OtherCategoriesAreSkippedByTheirLength) {
  const Bytes other = {34, 0, 7, 0xE0, 1, 2, 1};
  const Outcome o = run(cat({other, block(48, kPlotRecord), other}));
  EXPECT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.stats.error_count(), 0u);
  EXPECT_EQ(o.stats.other_blocks, 2u);
  EXPECT_EQ(o.stats.blocks, 1u);
}

TEST(Cat048Errors, FspecRunningOffTheBlock) {
  const Outcome o = run(block(48, {0xFF, 0xFF}));
  EXPECT_EQ(o.stats.errors.at("bad_fspec"), 1u);
}

TEST(Cat048Errors, FspecBitBeyondTheUap) {
  const Outcome o = run(block(48, cat({{0xF1, 0x01, 0x01, 0x01, 0x40}, kPlotRecord})));
  EXPECT_EQ(o.stats.errors.at("unknown_item"), 1u);
  EXPECT_TRUE(o.reports.empty());
}

TEST(Cat048Errors, EmptyFspecDropsTheRestOfTheBlockOnce) {
  const Outcome o = run(block(48, cat({kPlotRecord, {0, 0, 0, 0}})));
  EXPECT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.stats.errors.at("empty_fspec"), 1u);
}

TEST(Cat048Errors, ItemRunningOffTheBlock) {
  for (size_t cut = 1; cut < kTrackRecord.size(); ++cut) {
    SCOPED_TRACE(cut);
    const Bytes rec(kTrackRecord.begin(), kTrackRecord.begin() + static_cast<long>(cut));
    const Outcome o = run(block(48, rec));
    EXPECT_TRUE(o.reports.empty());
    EXPECT_EQ(o.stats.error_count(), 1u);
  }
}

TEST(Cat048Errors, MissingMandatoryItemSkipsOnlyThatRecord) {
  // 010, 020, 040 without 140.
  const Bytes no_tod = {0xB0, 0x01, 0x02, 0x20, 0x0A, 0x00, 0x40, 0x00};
  const Outcome o = run(block(48, cat({no_tod, kPlotRecord})));
  EXPECT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.stats.errors.at("missing_mandatory_item"), 1u);
}

TEST(Cat048Errors, TrackNumberSpareBits) {
  Bytes rec = kTrackRecord;
  rec[15] = 0xF1;  // 161's high octet
  const Outcome o = run(block(48, cat({rec, kPlotRecord})));
  EXPECT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.stats.errors.at("bad_track_number"), 1u);
}

TEST(Cat048Errors, TimeOfDayBeyondTheDay) {
  Bytes rec = kPlotRecord;
  rec[3] = 0xFF;  // 140 = 0xFF0080 > 86400 * 128
  const Outcome o = run(block(48, rec));
  EXPECT_EQ(o.stats.errors.at("bad_value"), 1u);
}

TEST(Cat048Errors, CompoundWithUndefinedSubfields) {
  Bytes rec = kTrackRecord;
  rec[12] = 0x19;  // 130 primary subfield with FX
  Outcome o = run(block(48, rec));
  EXPECT_EQ(o.stats.errors.at("unknown_item"), 1u);
  rec[12] = 0x00;  // no subfield at all: framed (one octet) but invalid
  rec.erase(rec.begin() + 13, rec.begin() + 15);
  o = run(block(48, cat({rec, kPlotRecord})));
  EXPECT_EQ(o.stats.errors.at("bad_value"), 1u);
  EXPECT_EQ(o.reports.size(), 1u);
}

TEST(Cat048Errors, ExplicitLengthZero) {
  // 010 140 020 040 + SP (FRN 27) with length 0.
  const Bytes rec = {0xF1, 0x01, 0x01, 0x04, 0x01, 0x02, 0x00, 0x00,
                     0x80, 0x20, 0x0A, 0x00, 0x40, 0x00, 0x00};
  const Outcome o = run(block(48, rec));
  EXPECT_EQ(o.stats.errors.at("bad_explicit_len"), 1u);
}

TEST(Cat048Decoder, ItemsWeDoNotKeepAreSkippedByTheirLengths) {
  // 010 140 020 040 070 090 | 250 (REP 1) | 120 (CAL + RDS REP 1) | SP (3 octets).
  const Bytes rec = cat({{0xFD, 0x21, 0x05, 0x04},
                         {0x01, 0x02, 0x00, 0x00, 0x80, 0x20, 0x0A, 0x00, 0x40, 0x00},
                         {0x12, 0x34},                                // 070
                         {0x00, 0x64},                                // 090
                         {0x01, 1, 2, 3, 4, 5, 6, 7, 8},              // 250
                         {0xC0, 0x00, 0x10, 0x01, 1, 2, 3, 4, 5, 6},  // 120
                         {0x03, 0xAA, 0xBB}});                        // SP
  const Outcome o = run(block(48, cat({rec, kPlotRecord})));
  EXPECT_EQ(o.stats.error_count(), 0u);
  ASSERT_EQ(o.reports.size(), 2u);
  EXPECT_DOUBLE_EQ(o.reports[0].rho_nm, 10.0);
}

TEST(Cat048Decoder, RepetitionRunningOffTheBlock) {
  // 250 claims 2 repetitions (16 octets) with 8 present.
  const Bytes rec = cat({{0xF1, 0x20},
                         {0x01, 0x02, 0x00, 0x00, 0x80, 0x20, 0x0A, 0x00, 0x40, 0x00},
                         {0x02, 1, 2, 3, 4, 5, 6, 7, 8}});
  const Outcome o = run(block(48, rec));
  EXPECT_EQ(o.stats.errors.at("item_truncated"), 1u);
}

}  // namespace
}  // namespace sweepline::cat048
