// Replay pacing, pause, step, seek and loop with an injected clock: fast and deterministic.
#include <unistd.h>
#include "tests/support/shared_data.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/asterix/cat240_encoder.hpp"
#include "app/capture/capture_writer.hpp"
#include "app/common/check.hpp"
#include "app/replay/replay_source.hpp"

using namespace sweepline;
using namespace sweepline::replay;

namespace {

constexpr int kRadials = 40;  // per rotation
constexpr int kRotations = 5;
constexpr double kPeriod = 4.0;  // s per rotation
constexpr double kT0 = 1.7e9;    // capture times since the epoch

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("swl_replay_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

// Radial j of the whole file: msg_index j, azimuth advancing kRadials per rotation, starting a
// little after north so that rotations begin at multiples of kRadials.
capture::Datagram datagram(int j, std::optional<double> tod_s) {
  cat240::Record r;
  r.sac = 9;
  r.sic = 8;
  r.msg_index = uint32_t(j);
  cat240::VideoHeader h;
  h.start_az = uint16_t((j % kRadials) * 65536 / kRadials + 10);
  h.end_az = uint16_t(((j % kRadials) + 1) * 65536 / kRadials + 10);
  h.cell_dur = 100;
  r.header = h;
  r.cells.assign(16, uint8_t(j));
  r.nb_cells = 16;
  if (tod_s) r.tod = uint32_t(std::llround(*tod_s * 128)) % (86400 * 128);
  capture::Datagram d;
  d.time = kT0 + j * kPeriod / kRadials;
  d.src_ip = 0x0A000001;
  d.dst_ip = 0xEF010203;
  d.src_port = 5000;
  d.dst_port = 8600;
  d.payload = cat240::encode_block(r);
  return d;
}

void write_file(const std::string& path, capture::CaptureFormat f, bool with_tod,
                double tod0 = 3600) {
  auto w = capture::open_capture_writer(path, f);
  for (int j = 0; j < kRadials * kRotations; ++j) {
    std::optional<double> tod;
    if (with_tod) tod = tod0 + j * kPeriod / kRadials;
    w->write(datagram(j, tod));
  }
  w->flush();
}

struct Fixture {
  TempDir dir;
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  std::unique_ptr<ReplaySource> open(capture::CaptureFormat f, bool tod, ReplayOptions o = {},
                                     double tod0 = 3600) {
    const std::string p = dir.file(f == capture::CaptureFormat::Raw ? "a.ast" : "a.pcap");
    write_file(p, f, tod, tod0);
    o.clock = clock;
    return std::make_unique<ReplaySource>(p, o);
  }
};

std::vector<cat240::Record> poll(ReplaySource& s) {
  std::vector<cat240::Record> out;
  s.poll(out);
  return out;
}

}  // namespace

TEST(ReplaySource, IndexCountsRotationsAndPacesByCaptureTime) {
  Fixture fx;
  auto s = fx.open(capture::CaptureFormat::Pcap, false);
  EXPECT_EQ(s->rotation_count(), uint64_t(kRotations));
  EXPECT_EQ(s->datagram_count(), uint64_t(kRadials * kRotations));
  EXPECT_EQ(s->pacing(), Pacing::CaptureTime);
  EXPECT_EQ(poll(*s).size(), 1u) << "the first datagram is due at once";
  fx.clock->advance(1.01);  // a quarter rotation: radials 1..10
  auto got = poll(*s);
  ASSERT_EQ(got.size(), size_t(kRadials / 4));
  EXPECT_EQ(*got.front().msg_index, 1u);
  EXPECT_EQ(*got.back().msg_index, 10u);
  EXPECT_EQ(poll(*s).size(), 0u) << "nothing more until the clock moves";
  EXPECT_EQ(s->status().records, 11u);
  EXPECT_EQ(s->status().state, "running");
}

TEST(ReplaySource, SpeedScalesPacingAndIsClamped) {
  Fixture fx;
  auto s = fx.open(capture::CaptureFormat::Pcap, false);
  s->set_speed(10);
  EXPECT_EQ(s->speed(), 10);
  poll(*s);
  fx.clock->advance(0.201);  // 2 s of file = 20 radials
  EXPECT_EQ(poll(*s).size(), 20u);
  s->set_speed(0.5);
  fx.clock->advance(0.001);
  poll(*s);                 // re-anchors on the next radial, delivering it
  fx.clock->advance(2.01);  // 1 s of file = 10 radials
  EXPECT_EQ(poll(*s).size(), 10u);
  s->set_speed(1000);
  EXPECT_EQ(s->speed(), kMaxSpeed);
  s->set_speed(0.001);
  EXPECT_EQ(s->speed(), kMinSpeed);
  s->set_speed(-3);
  EXPECT_EQ(s->speed(), 1.0);
}

TEST(ReplaySource, UnpacedDeliversEverythingInBoundedPolls) {
  Fixture fx;
  ReplayOptions o;
  o.speed = 0;
  o.loop = false;
  o.max_datagrams_per_poll = 64;
  auto s = fx.open(capture::CaptureFormat::Pcap, false, o);
  std::vector<cat240::Record> all;
  int polls = 0;
  while (s->poll(all)) ++polls;
  EXPECT_EQ(all.size(), size_t(kRadials * kRotations));
  EXPECT_GE(polls, kRadials * kRotations / 64);
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(*all[i].msg_index, uint32_t(i));
  EXPECT_EQ(s->status().state, "ended");
  EXPECT_EQ(s->status().lost_messages, 0u);
  std::vector<cat240::Record> more;
  EXPECT_FALSE(s->poll(more));
  EXPECT_TRUE(more.empty());
}

TEST(ReplaySource, PauseHoldsAndResumesWithoutABurst) {
  Fixture fx;
  auto s = fx.open(capture::CaptureFormat::Pcap, false);
  poll(*s);
  s->set_paused(true);
  EXPECT_EQ(s->status().state, "paused");
  fx.clock->advance(100);
  EXPECT_EQ(poll(*s).size(), 0u);
  s->set_paused(false);
  auto first = poll(*s);
  ASSERT_EQ(first.size(), 1u) << "only the next radial, not 100 s worth";
  EXPECT_EQ(*first[0].msg_index, 1u);
  fx.clock->advance(0.51);
  EXPECT_EQ(poll(*s).size(), 5u);
}

TEST(ReplaySource, StepDeliversExactlyOneRotation) {
  Fixture fx;
  auto s = fx.open(capture::CaptureFormat::Pcap, false);
  s->set_paused(true);
  s->step_rotation();
  auto r0 = poll(*s);
  ASSERT_EQ(r0.size(), size_t(kRadials));
  EXPECT_EQ(*r0.front().msg_index, 0u);
  EXPECT_EQ(s->position_rotation(), 1u);
  EXPECT_TRUE(s->paused());
  EXPECT_EQ(poll(*s).size(), 0u) << "still paused after the step";
  s->step_rotation();
  auto r1 = poll(*s);
  ASSERT_EQ(r1.size(), size_t(kRadials));
  EXPECT_EQ(*r1.front().msg_index, uint32_t(kRadials));
}

TEST(ReplaySource, SeekToRotationNStartsAtItsFirstRadial) {
  Fixture fx;
  auto s = fx.open(capture::CaptureFormat::Pcap, false);
  poll(*s);
  s->seek_rotation(3);
  EXPECT_EQ(s->status().rotation, 3u);
  auto got = poll(*s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(*got[0].msg_index, uint32_t(3 * kRadials));
  EXPECT_EQ(s->status().lost_messages, 0u) << "a seek is not a loss";
  EXPECT_GE(s->status().discontinuities, 1u);
  s->seek_rotation(99);  // clamped to the last
  EXPECT_EQ(*poll(*s).at(0).msg_index, uint32_t((kRotations - 1) * kRadials));
}

TEST(ReplaySource, LoopRestartsAtTheFirstRadial) {
  Fixture fx;
  ReplayOptions o;
  o.speed = 0;
  o.max_datagrams_per_poll = 1000;
  auto s = fx.open(capture::CaptureFormat::Pcap, false, o);
  s->seek_rotation(kRotations - 1);
  auto got = poll(*s);  // the last rotation, then the file again from its start
  ASSERT_GT(got.size(), size_t(kRadials));
  EXPECT_EQ(*got[kRadials - 1].msg_index, uint32_t(kRadials * kRotations - 1));
  EXPECT_EQ(*got[kRadials].msg_index, 0u);
  EXPECT_TRUE(s->loop());
  EXPECT_EQ(s->status().state, "running");
}

TEST(ReplaySource, PacesRawFilesByTimeOfDayAcrossMidnight) {
  Fixture fx;
  // Starts 2 s before midnight; the file's Time of Day wraps to 0.
  auto s = fx.open(capture::CaptureFormat::Raw, true, {}, 86400.0 - 2.0);
  EXPECT_EQ(s->pacing(), Pacing::TimeOfDay);
  poll(*s);
  fx.clock->advance(4.01);  // over midnight: one rotation
  EXPECT_EQ(poll(*s).size(), size_t(kRadials));
}

TEST(ReplaySource, PacesByRotationRateWithoutTimes) {
  Fixture fx;
  ReplayOptions o;
  o.rotation_period_s = 2.0;
  auto s = fx.open(capture::CaptureFormat::Raw, false, o);
  EXPECT_EQ(s->pacing(), Pacing::RotationRate);
  poll(*s);
  fx.clock->advance(1.01);  // half a rotation at 2 s per rotation
  EXPECT_EQ(poll(*s).size(), size_t(kRadials / 2));
}

TEST(ReplaySource, OpeningErrorsAreClear) {
  Fixture fx;
  ReplayOptions o;
  o.clock = fx.clock;
  EXPECT_THROW(ReplaySource(fx.dir.file("missing.pcap"), o), Error);
  const std::string raw = fx.dir.file("b.ast");
  write_file(raw, capture::CaptureFormat::Raw, false);
  o.pacing = Pacing::TimeOfDay;
  try {
    ReplaySource s(raw, o);
    ADD_FAILURE() << "no Time of Day to pace by";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Time of Day"), std::string::npos) << e.what();
  }
  o.pacing = Pacing::Auto;
  o.filter.port = 1234;  // nothing passes
  const std::string pcap = fx.dir.file("c.pcap");
  write_file(pcap, capture::CaptureFormat::Pcap, false);
  EXPECT_THROW(ReplaySource(pcap, o), Error);
}

TEST(ReplaySource, SharedSamplesIndexTheirRotations) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  const std::string dir = std::string(SWEEPLINE_SHARED_DIR) + "/data/";
  ReplayOptions o;
  o.clock = std::make_shared<ManualClock>();
  o.speed = 0;
  o.loop = false;
  ReplaySource basic(dir + "basic_8bit_nano.pcap", o);
  EXPECT_EQ(basic.rotation_count(), 2u);
  EXPECT_EQ(basic.pacing(), Pacing::CaptureTime);
  std::vector<cat240::Record> all;
  while (basic.poll(all)) {
  }
  EXPECT_EQ(all.size(), 514u);
  EXPECT_EQ(basic.status().lost_messages, 0u);
  ReplaySource femto(dir + "compressed_4bit_femto.ast", o);
  EXPECT_EQ(femto.rotation_count(), 1u);
  all.clear();
  while (femto.poll(all)) {
  }
  EXPECT_EQ(all.size(), 512u);
}

TEST(ReplaySource, PipesAreCopiedSoTheyIndexSeekAndLoop) {
  // A pipe opened by path, fed by a thread: what `cat file | sweepline view -` gives replay.
  TempDir dir;
  const std::string p = dir.file("piped.pcap");
  write_file(p, capture::CaptureFormat::Pcap, false);
  std::vector<char> bytes;
  {
    std::ifstream in(p, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([fd = fds[1], &bytes] {
    sigset_t pipe_signal;  // a reader that stops early: EPIPE here, not SIGPIPE
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    for (size_t off = 0; off < bytes.size();) {
      const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    ::close(fd);
  });
  ReplayOptions o;
  o.speed = 0;
  o.max_datagrams_per_poll = 1000;
  o.clock = std::make_shared<ManualClock>();
  std::unique_ptr<ReplaySource> s;
  try {
    s = std::make_unique<ReplaySource>("/proc/self/fd/" + std::to_string(fds[0]), o);
  } catch (const Error& e) {
    ADD_FAILURE() << e.what();
  }
  ::close(fds[0]);
  writer.join();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rotation_count(), uint64_t(kRotations));
  s->seek_rotation(kRotations - 1);
  auto got = poll(*s);  // the last rotation, then from the start again
  ASSERT_GT(got.size(), size_t(kRadials));
  EXPECT_EQ(*got[kRadials].msg_index, 0u);
}
