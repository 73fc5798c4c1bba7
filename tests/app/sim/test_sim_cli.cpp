// `sweepline sim` as a user runs it: capture + truth, determinism across runs, errors.
#include <gtest/gtest.h>

#include "sim_test_util.hpp"
#include "tests/support/run_command.hpp"

namespace sweepline::simtest {
namespace {

TEST(SimCli, WritesCaptureAndTruthAndSummarises) {
  const std::string out = temp_path("cli.pcap"), truth = temp_path("cli.truth.jsonl");
  const std::string args =
      "sim --scenario vessels50 --seed 4 --rotations 2 --radials 1024 --cells 512 "
      "--res 16 --compress --style zero-width --set vessels=12 --out " +
      out + " --truth " + truth;
  const auto r = test::run_sweepline(args);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("simulated 2 rotation(s)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rotation 2/2"), std::string::npos) << "no progress: " << r.output;
  const auto lines = read_truth(truth);
  EXPECT_EQ(lines.size(), 24u);
  sim::Scenario s = sim::make_scenario("vessels50");
  s.radar.radials = 1024;
  s.radar.cells = 512;
  const Replayed rp = replay(out, s);
  EXPECT_EQ(rp.decode_errors, 0u);
  EXPECT_EQ(rp.frames.size(), 2u);
  EXPECT_EQ(rp.records.size(), 2u * 1024u + 2u);
  for (const auto& rec : rp.records)
    if (rec.type == cat240::MessageType::Video) {
      EXPECT_EQ(rec.res_bits, 16);
      EXPECT_TRUE(rec.compressed);
      EXPECT_EQ(rec.header->start_az, rec.header->end_az);
    }
  // Same command, same bytes.
  const std::string out2 = temp_path("cli2.pcap");
  ASSERT_EQ(test::run_sweepline("sim --scenario vessels50 --seed 4 --rotations 2 --radials 1024 "
                                "--cells 512 --res 16 --compress --style zero-width --set "
                                "vessels=12 --quiet --out " +
                                out2)
                .status,
            0);
  EXPECT_TRUE(read_bytes(out) == read_bytes(out2));
}

TEST(SimCli, BadArgumentsFailWithAMessage) {
  // Each message names what was wrong: the option (a value refused while parsing, exit status 2,
  // or out of the scenario's range) or, with nothing to do, the command.
  const std::pair<const char*, const char*> cases[] = {
      {"sim --scenario atlantis --out /dev/null", "--scenario"},
      {"sim --set bogus=1 --out /dev/null", "--set"},
      {"sim --res 3 --out /dev/null", "--res"},
      {"sim --style odd --out /dev/null", "--style"},
      {"sim --udp 239.0.1.2 --rotations 1", "--udp"},
      {"sim --image nope --out /dev/null", "--image"},
      {"sim", "sim: nothing to do"}};
  for (const auto& [bad, part] : cases) {
    const auto r = test::run_sweepline(bad);
    EXPECT_NE(r.status, 0) << bad;
    EXPECT_NE(r.output.find(part), std::string::npos) << bad << ": " << r.output;
  }
}

TEST(SimCli, WritesTestImages) {
  const std::string png = temp_path("stars.png");
  const auto r = test::run_sweepline("sim --image stars --size 300x200 --out " + png);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GT(read_bytes(png).size(), 50u);
}

}  // namespace
}  // namespace sweepline::simtest
