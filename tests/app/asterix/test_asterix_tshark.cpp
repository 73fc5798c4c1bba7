// An independent decoder agrees with our encoders: Wireshark's ASTERIX dissector (tshark) reads a
// capture of what the CAT048, CAT034 and CAT240 encoders write and must show, record by record,
// the field values we meant (within the item's LSB) and flag nothing malformed. The scene has
// hundreds of plots and tracks over the full ranges of every item, packed many to a datagram as
// `sweepline serve` sends them. Skips when tshark is not installed (Debian: apt-get install
// tshark; scripts/setup installs it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "app/asterix/cat034_encoder.hpp"
#include "app/asterix/cat048_encoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/capture/capture_writer.hpp"
#include "tests/app/asterix/asterix_scene.hpp"
#include "tests/support/run_command.hpp"

namespace sweepline::asterix {
namespace {

constexpr int kPort = 40048;
using Expected = std::variant<cat048::TargetReport, cat034::ServiceMessage, cat240::Record>;
using Fields = std::map<std::string, std::string>;

// Every leaf of one record's JSON tree, by field name ("asterix.048_040_RHO" -> "10.5"). A
// repetitive item's elements come as an array; their values are joined in order (the CAT240
// summary is a repetition of characters).
void flatten(const nlohmann::json& j, Fields& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it->is_object()) {
      flatten(*it, out);
    } else if (it->is_array()) {
      for (const auto& e : *it) {
        if (e.is_object()) flatten(e, out);
        if (e.is_string()) out[it.key()] += e.get<std::string>();
      }
    } else if (it->is_string()) {
      out[it.key()] += it->get<std::string>();
    }
  }
}

// With --no-duplicate-keys, one child is an object and several an array of them.
std::vector<nlohmann::json> as_list(const nlohmann::json& j) {
  if (j.is_array()) return {j.begin(), j.end()};
  return {j};
}

// CAT240 fields carry the edition in their name in some tshark versions (240_V1_3_010_SAC).
std::string find240(const Fields& f, const std::string& suffix) {
  for (const char* prefix : {"asterix.240_V1_3_", "asterix.240_"}) {
    const auto it = f.find(prefix + suffix);
    if (it != f.end()) return it->second;
  }
  return "";
}

double num(const Fields& f, const std::string& key) {
  const auto it = f.find(key);
  if (it == f.end()) {
    ADD_FAILURE() << "tshark shows no " << key;
    return NAN;
  }
  return std::stod(it->second);
}
long integer(const Fields& f, const std::string& key) {
  const auto it = f.find(key);
  if (it == f.end()) {
    ADD_FAILURE() << "tshark shows no " << key;
    return -1;
  }
  return std::stol(it->second, nullptr, 0);  // SAC/SIC come as "0x19"
}

// |a - b| within `lsb` (one LSB: ours rounds to the nearest, tshark prints ~15 digits).
void near(double want, double got, double lsb, const char* what) {
  EXPECT_LE(std::fabs(want - got), lsb) << what << ": meant " << want << ", tshark " << got;
}
void near_angle(double want, double got, double lsb, const char* what) {
  EXPECT_LE(std::fabs(std::remainder(want - got, 360.0)), lsb)
      << what << ": meant " << want << ", tshark " << got;
}

void check(const cat048::TargetReport& r, const Fields& f) {
  using namespace cat048;
  EXPECT_EQ(integer(f, "asterix.048_010_SAC"), r.sac);
  EXPECT_EQ(integer(f, "asterix.048_010_SIC"), r.sic);
  EXPECT_LE(std::fabs(std::remainder(r.tod_s - num(f, "asterix.048_140_VALUE"), 86400.0)),
            kTodLsbS);
  EXPECT_EQ(integer(f, "asterix.048_020_TYP"), static_cast<int>(r.descriptor.typ));
  EXPECT_EQ(integer(f, "asterix.048_020_SIM"), r.descriptor.sim);
  if (r.descriptor.tst) {
    EXPECT_EQ(integer(f, "asterix.048_020_TST"), 1);
  }
  near(r.rho_nm, num(f, "asterix.048_040_RHO"), kRhoLsbNm, "RHO");
  near_angle(r.theta_deg, num(f, "asterix.048_040_THETA"), kThetaLsbDeg, "THETA");
  if (r.plot) {
    near(*r.plot->prl_deg, num(f, "asterix.048_130_PRL_VALUE"), kRunLengthLsbDeg, "PRL");
    EXPECT_EQ(integer(f, "asterix.048_130_PAM_VALUE"), *r.plot->pam_dbm);
  }
  EXPECT_EQ(f.count("asterix.048_161_TRN"), r.track_number ? 1u : 0u);
  if (r.track_number) {
    EXPECT_EQ(integer(f, "asterix.048_161_TRN"), *r.track_number);
  }
  if (r.x_nm) {
    near(*r.x_nm, num(f, "asterix.048_042_X"), kCartesianLsbNm, "X");
    near(*r.y_nm, num(f, "asterix.048_042_Y"), kCartesianLsbNm, "Y");
  }
  if (r.ground_speed_nm_s) {
    near(*r.ground_speed_nm_s, num(f, "asterix.048_200_GSP"), kSpeedLsbNmPerS, "GSP");
    near_angle(*r.heading_deg, num(f, "asterix.048_200_HDG"), kThetaLsbDeg, "HDG");
  }
  if (r.status) {
    EXPECT_EQ(integer(f, "asterix.048_170_CNF"), r.status->tentative);
    EXPECT_EQ(integer(f, "asterix.048_170_RAD"), r.status->rad);
    EXPECT_EQ(integer(f, "asterix.048_170_MAH"), r.status->mah);
    if (r.status->tre) {
      EXPECT_EQ(integer(f, "asterix.048_170_TRE"), 1);
    }
  }
}

void check(const cat034::ServiceMessage& m, const Fields& f) {
  using namespace cat034;
  EXPECT_EQ(integer(f, "asterix.034_010_SAC"), m.sac);
  EXPECT_EQ(integer(f, "asterix.034_010_SIC"), m.sic);
  EXPECT_EQ(integer(f, "asterix.034_000_VALUE"), static_cast<int>(m.type));
  near(m.tod_s, num(f, "asterix.034_030_VALUE"), kTodLsbS, "ToD");
  if (m.sector_deg)
    near_angle(*m.sector_deg, num(f, "asterix.034_020_VALUE"), kSectorLsbDeg, "sector");
  if (m.rotation_period_s)
    near(*m.rotation_period_s, num(f, "asterix.034_041_VALUE"), kRotationLsbS, "rotation");
  if (m.status) {
    EXPECT_EQ(integer(f, "asterix.034_050_COM_NOGO"), m.status->nogo);
    EXPECT_EQ(integer(f, "asterix.034_050_COM_TSV"), m.status->tsv);
    EXPECT_EQ(integer(f, "asterix.034_050_PSR_CHAB"), m.status->psr_ch_ab);
  }
  if (m.mode) {
    EXPECT_EQ(integer(f, "asterix.034_060_COM_REDXMT"), m.mode->red_xmt);
    EXPECT_EQ(integer(f, "asterix.034_060_PSR_STC"), m.mode->psr_stc);
  }
  if (m.position) {
    near(m.position->lat_deg, num(f, "asterix.034_120_LAT"), kLatLonLsbDeg, "LAT");
    near(m.position->lon_deg, num(f, "asterix.034_120_LON"), kLatLonLsbDeg, "LON");
    near(m.position->height_m, num(f, "asterix.034_120_HGT"), kHeightLsbM, "HGT");
  }
}

void check(const cat240::Record& r, const Fields& f) {
  EXPECT_EQ(std::stol(find240(f, "010_SAC"), nullptr, 0), r.sac);
  EXPECT_EQ(std::stol(find240(f, "010_SIC"), nullptr, 0), r.sic);
  EXPECT_EQ(std::stol(find240(f, "000_VALUE")), static_cast<int>(r.type));
  if (r.type == cat240::MessageType::Summary) {
    EXPECT_EQ(find240(f, "030_VALUE"), r.summary);
    return;
  }
  EXPECT_EQ(std::stoul(find240(f, "020_VALUE")), *r.msg_index);
  const char* h = r.header->unit == cat240::CellDurUnit::Nano ? "040_" : "041_";
  const double az = 360.0 / 65536.0;
  near(r.header->start_az * az, std::stod(find240(f, std::string(h) + "STARTAZ")), az / 2,
       "STARTAZ");
  near(r.header->end_az * az, std::stod(find240(f, std::string(h) + "ENDAZ")), az / 2, "ENDAZ");
  EXPECT_EQ(std::stoul(find240(f, std::string(h) + "STARTRG")), r.header->start_rg);
  EXPECT_EQ(std::stod(find240(f, std::string(h) + "CELLDUR")), r.header->cell_dur);
  EXPECT_EQ(std::stol(find240(f, "048_C")), r.compressed);
  EXPECT_EQ(cat240::res_bits_from_code(static_cast<int>(std::stol(find240(f, "048_RES")))),
            r.res_bits);
  EXPECT_EQ(std::stoul(find240(f, "049_NBCELLS")), r.cells.size());
  if (r.tod) near(*r.tod / 128.0, std::stod(find240(f, "140_VALUE")), 1.0 / 256, "ToD");
}

struct Capture {
  std::vector<capture::Datagram> datagrams;
  std::vector<std::vector<Expected>> expected;  // records of each datagram, in order

  void add(std::vector<uint8_t> payload, std::vector<Expected> records) {
    capture::Datagram d;
    d.time = 1.7e9 + 0.01 * static_cast<double>(datagrams.size());
    d.src_ip = 0x0A000001;
    d.dst_ip = 0xEF000001;
    d.src_port = 50000;
    d.dst_port = kPort;
    d.payload = std::move(payload);
    datagrams.push_back(std::move(d));
    expected.push_back(std::move(records));
  }
};

// The scene: one scan's service messages, 800 reports (plots and tracks) split into datagrams
// of at most 1400 bytes, a CAT034 + CAT048 datagram, one report per datagram, and CAT240 video
// of several resolutions, header kinds and compression, and a summary.
Capture make_scene() {
  Capture c;
  const auto service = test::service_messages(3600.5, 16);
  for (const auto& m : service) c.add(cat034::encode_block(m), {m});

  const auto reports = test::random_reports(20240, 800);
  size_t next = 0;
  for (auto& block : cat048::encode_datagrams(reports, 1400)) {
    // Records per block: count them back by re-encoding (encode_datagrams keeps the order).
    std::vector<Expected> recs;
    size_t bytes = 3;
    while (bytes < block.size()) {
      std::vector<uint8_t> one;
      cat048::append_record(reports[next], one);
      bytes += one.size();
      recs.emplace_back(reports[next++]);
    }
    c.add(std::move(block), std::move(recs));
  }
  EXPECT_EQ(next, reports.size());

  std::vector<uint8_t> mixed = cat034::encode_block(service[1]);
  const std::vector<cat048::TargetReport> two(reports.begin(), reports.begin() + 2);
  cat048::append_block(two, mixed);
  c.add(std::move(mixed), {service[1], reports[0], reports[1]});
  for (size_t i = 0; i < 20; ++i) c.add(cat048::encode_block(reports[i]), {reports[i]});

  std::mt19937 rng(240);
  const int bits[] = {8, 4, 16, 1};
  for (int i = 0; i < 4; ++i) {
    cat240::Record v;
    v.sac = 25;
    v.sic = 7;
    v.type = cat240::MessageType::Video;
    v.msg_index = 1000u + static_cast<uint32_t>(i);
    v.header = cat240::VideoHeader{static_cast<uint16_t>(i * 16000 + 5),
                                   static_cast<uint16_t>(i * 16000 + 40), static_cast<uint32_t>(i),
                                   i % 2 ? 130666656u : 40u,
                                   i % 2 ? cat240::CellDurUnit::Femto : cat240::CellDurUnit::Nano};
    v.res_bits = static_cast<uint8_t>(bits[i]);
    v.compressed = i == 2;
    v.cells.resize(300u + 100u * static_cast<unsigned>(i));
    for (auto& x : v.cells) x = static_cast<uint8_t>(rng() & 0xFF);
    v.tod = 3600u * 128u + static_cast<uint32_t>(i);
    c.add(cat240::encode_block(v), {v});
  }
  cat240::Record s;
  s.sac = 25;
  s.sic = 7;
  s.type = cat240::MessageType::Summary;
  s.summary = "sweepline test";
  c.add(cat240::encode_block(s), {s});
  return c;
}

std::string tshark_cmd(const std::string& pcap, const std::string& rest) {
  return "tshark -n -r '" + pcap + "' -d udp.port==" + std::to_string(kPort) + ",asterix " + rest +
         " 2>/dev/null";
}

TEST(AsterixTshark, WiresharkDecodesEveryRecordWithTheValuesWeMeant) {
  if (!sweepline::test::have_program("tshark"))
    GTEST_SKIP() << "tshark is not installed (apt-get install tshark); the independent ASTERIX "
                    "check needs it";
  const Capture scene = make_scene();
  const auto dir =
      std::filesystem::temp_directory_path() / ("sweepline_tshark_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pcap = (dir / "scene.pcap").string();
  {
    auto w = capture::open_pcap_writer(pcap);
    for (const auto& d : scene.datagrams) w->write(d);
    w->flush();
  }

  // Nothing malformed and no expert info of any severity.
  const auto flagged = sweepline::test::run_command(
      tshark_cmd(pcap, "-Y '_ws.malformed || _ws.expert' -T fields -e frame.number"));
  ASSERT_EQ(flagged.status, 0);
  EXPECT_EQ(flagged.output, "") << "tshark flags these frames";

  const auto json = sweepline::test::run_command(tshark_cmd(pcap, "-T json --no-duplicate-keys"));
  ASSERT_EQ(json.status, 0);
  const auto packets = nlohmann::json::parse(json.output);
  ASSERT_EQ(packets.size(), scene.datagrams.size());

  size_t records = 0, n048 = 0, n034 = 0, n240 = 0, tracks = 0;
  for (size_t i = 0; i < packets.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i + 1));
    const auto& layers = packets[i]["_source"]["layers"];
    ASSERT_TRUE(layers.contains("asterix"));
    std::vector<std::pair<int, Fields>> got;  // (category, fields) per record
    for (const nlohmann::json& blk : as_list(layers["asterix"])) {
      const int category = std::stoi(blk["asterix.category"].get<std::string>());
      ASSERT_TRUE(blk.contains("asterix.message"));
      for (const auto& msg : as_list(blk["asterix.message"])) {
        Fields f;
        flatten(msg, f);
        got.emplace_back(category, std::move(f));
      }
    }
    const auto& want = scene.expected[i];
    ASSERT_EQ(got.size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      SCOPED_TRACE("record " + std::to_string(k));
      ++records;
      if (const auto* r = std::get_if<cat048::TargetReport>(&want[k])) {
        ASSERT_EQ(got[k].first, 48);
        check(*r, got[k].second);
        ++n048;
        tracks += r->is_track();
      } else if (const auto* m = std::get_if<cat034::ServiceMessage>(&want[k])) {
        ASSERT_EQ(got[k].first, 34);
        check(*m, got[k].second);
        ++n034;
      } else {
        ASSERT_EQ(got[k].first, 240);
        check(std::get<cat240::Record>(want[k]), got[k].second);
        ++n240;
      }
    }
  }
  EXPECT_EQ(n048, 800u + 2u + 20u);
  EXPECT_GE(tracks, 400u);
  EXPECT_EQ(n034, 17u + 1u);
  EXPECT_EQ(n240, 5u);
  std::printf(
      "tshark agreed on %zu records (%zu CAT048 of which %zu tracks, %zu CAT034, %zu "
      "CAT240) in %zu datagrams\n",
      records, n048, tracks, n034, n240, scene.datagrams.size());
  std::filesystem::remove_all(dir);
}

// The check is not vacuous: tshark does flag a record cut short, and does show a value we did
// not mean.
TEST(AsterixTshark, TheCheckCatchesATruncatedRecordAndAWrongValue) {
  if (!sweepline::test::have_program("tshark")) GTEST_SKIP() << "tshark is not installed";
  cat048::TargetReport r;
  r.sac = 1;
  r.sic = 2;
  r.rho_nm = 10;
  r.theta_deg = 90;
  r.track_number = 7;
  std::vector<uint8_t> cut = cat048::encode_block(r);
  cut.resize(cut.size() - 1);
  cut[2] = static_cast<uint8_t>(cut.size());  // a consistent LEN around a record cut short
  std::vector<uint8_t> wrong = cat048::encode_block(r);
  wrong[wrong.size() - 1] = 8;  // track number 8
  const auto dir = std::filesystem::temp_directory_path() /
                   ("sweepline_tshark_bad_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pcap = (dir / "bad.pcap").string();
  {
    auto w = capture::open_pcap_writer(pcap);
    capture::Datagram d;
    d.src_ip = 0x0A000001;
    d.dst_ip = 0x0A000002;
    d.dst_port = kPort;
    d.payload = cut;
    w->write(d);
    d.payload = wrong;
    w->write(d);
  }
  const auto flagged = sweepline::test::run_command(
      tshark_cmd(pcap, "-Y '_ws.malformed || _ws.expert' -T fields -e frame.number"));
  EXPECT_EQ(flagged.output, "1\n");
  const auto trn =
      sweepline::test::run_command(tshark_cmd(pcap, "-T fields -e asterix.048_161_TRN"));
  EXPECT_EQ(trn.output, "\n8\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sweepline::asterix
