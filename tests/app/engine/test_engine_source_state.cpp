// The engine's source state as the console shows it: a source that fails to open leaves the
// working one running (a live one gives up its port to the same feed on another address, and
// returns if the new one fails all the same), replay speed and loop belong to the source they were
// set for, Play after a replay has ended starts it again, and new parameters while paused
// re-process the frame on screen.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "app/engine/engine.hpp"

using namespace sweepline;
using namespace sweepline::engine;

namespace {

const std::string kCapture = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";

// The CPU backend, the file read unpaced and once (as headless runs do).
EngineSettings cpu_settings() {
  EngineSettings s;
  s.processing.backend = "cpu";
  s.source.speed = 0;
  s.source.loop = false;
  return s;
}

}  // namespace

TEST(EngineSourceState, ASourceThatFailsToOpenLeavesTheWorkingOneRunning) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture)) << e.source_view().error;
  ASSERT_TRUE(e.pump_rotation(60));
  for (const std::string bad :
       {"/nonexistent/typo.pcap", "udp://300.1.2.3:8600", "sim://nosuchscenario"}) {
    EXPECT_FALSE(e.open_source(bad)) << bad;
    e.refresh_status();
    EXPECT_TRUE(e.source_view().open) << bad << ": the working source was closed";
    EXPECT_FALSE(e.source_view().error.empty()) << bad << ": no message";
    EXPECT_EQ(e.settings().source.uri, kCapture) << bad;
  }
  EXPECT_NE(e.source_view().error.find("nosuchscenario"), std::string::npos)
      << e.source_view().error;
  EXPECT_TRUE(e.pump_rotation(60)) << "the working source stopped delivering";
  EXPECT_TRUE(e.process_and_wait());
  // The next source that opens clears the message.
  ASSERT_TRUE(e.open_source(kCapture));
  EXPECT_TRUE(e.source_view().error.empty()) << e.source_view().error;
}

TEST(EngineSourceState, AFirstSourceThatFailsLeavesNoneAndSaysWhy) {
  Engine e(cpu_settings());
  EXPECT_FALSE(e.open_source("/nonexistent/typo.pcap"));
  EXPECT_FALSE(e.source_view().open);
  EXPECT_NE(e.source_view().error.find("/nonexistent/typo.pcap"), std::string::npos);
}

TEST(EngineSourceState, SpeedAndLoopBelongToTheSourceTheyWereSetFor) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture));
  e.refresh_status();
  EXPECT_EQ(e.source_view().speed, 0) << "the settings' speed is the first source's";
  EXPECT_FALSE(e.source_view().loop);
  e.set_speed(8);
  e.set_loop(true);
  // Another source starts at the defaults, not at x8.
  const std::string sim = "sim://harbour?seed=2&rpm=24";
  ASSERT_TRUE(e.open_source(sim)) << e.source_view().error;
  e.refresh_status();
  EXPECT_EQ(e.source_view().speed, 1);
  EXPECT_TRUE(e.source_view().loop);
  EXPECT_EQ(e.settings().source.speed, 1);
  EXPECT_TRUE(e.settings().source.loop);
  // The same source opened again keeps what was set for it.
  e.set_speed(2);
  e.set_loop(false);
  ASSERT_TRUE(e.open_source(sim));
  e.refresh_status();
  EXPECT_EQ(e.source_view().speed, 2);
  EXPECT_FALSE(e.source_view().loop);
  // A capture that fails to open changes nothing.
  EXPECT_FALSE(e.open_source("/nonexistent/typo.pcap"));
  EXPECT_EQ(e.settings().source.speed, 2);
}

TEST(EngineSourceState, PlayAfterAReplayHasEndedStartsItAgain) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture));
  int rotations = 0;
  while (e.pump_rotation(60)) ++rotations;
  ASSERT_GT(rotations, 2);
  e.refresh_status();
  ASSERT_EQ(e.source_view().status.state, "ended");
  EXPECT_TRUE(e.paused()) << "an ended replay offers Play";
  EXPECT_TRUE(e.source_view().paused);
  e.set_paused(false);
  EXPECT_FALSE(e.paused());
  int again = 0;
  while (e.pump_rotation(60)) ++again;
  EXPECT_GE(again, rotations - 1) << "Play after the end did not replay the capture";
}

TEST(EngineSourceState, NewParametersWhilePausedReprocessTheHeldFrame) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
  ASSERT_TRUE(e.process_and_wait());
  const uint64_t before = e.frames_processed();
  EXPECT_FALSE(e.frame_dirty());

  // Playing: a new parameter waits for the next frame of video.
  gpu::PipelineParams p = e.settings().processing.params;
  p.threshold = uint8_t(p.threshold + 10);
  e.set_params(p);
  EXPECT_FALSE(e.frame_dirty());

  e.set_paused(true);
  p.threshold = uint8_t(p.threshold + 10);
  e.set_params(p);
  EXPECT_TRUE(e.frame_dirty()) << "paused: the held frame is not processed again";
  ASSERT_TRUE(e.process_and_wait());
  EXPECT_EQ(e.frames_processed(), before + 1);
  EXPECT_EQ(e.applied_params().threshold, p.threshold);
  EXPECT_GT(e.result()->count, 0) << "the held frame came back empty";

  e.set_display_size(768);
  EXPECT_TRUE(e.frame_dirty()) << "paused: a new display size is not shown";
  ASSERT_TRUE(e.process_and_wait());
  EXPECT_EQ(e.geometry().width, 768);
}

namespace {

// A UDP socket bound to addr:port (port 0: any free one), for the tests below.
struct HeldPort {
  int fd = -1;
  int port = 0;
  HeldPort(const char* addr, int want) {
    fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(uint16_t(want));
    ::inet_pton(AF_INET, addr, &sa.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) return;
    socklen_t len = sizeof sa;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
    port = ntohs(sa.sin_port);
  }
  ~HeldPort() { ::close(fd); }
};

int free_port() {
  HeldPort p("127.0.0.1", 0);
  return p.port;
}

}  // namespace

TEST(EngineSourceState, TheSameFeedOnAnotherAddressReplacesTheLiveSource) {
  const int port = free_port();
  ASSERT_GT(port, 0);
  Engine e(cpu_settings());
  const std::string any = "udp://0.0.0.0:" + std::to_string(port);
  const std::string local = "udp://127.0.0.1:" + std::to_string(port);
  ASSERT_TRUE(e.open_source(any)) << e.source_view().error;
  // The live source holds the port: the new one takes it over instead of failing "in use".
  EXPECT_TRUE(e.open_source(local)) << e.source_view().error;
  e.refresh_status();
  EXPECT_TRUE(e.source_view().open);
  EXPECT_TRUE(e.source_view().error.empty()) << e.source_view().error;
  EXPECT_EQ(e.settings().source.uri, local);
}

TEST(EngineSourceState, APortHeldElsewhereKeepsTheLiveSource) {
  HeldPort other("127.0.0.1", 0);
  ASSERT_GT(other.port, 0);
  const int port = free_port();
  Engine e(cpu_settings());
  const std::string mine = "udp://127.0.0.1:" + std::to_string(port);
  ASSERT_TRUE(e.open_source(mine)) << e.source_view().error;
  EXPECT_FALSE(e.open_source("udp://127.0.0.1:" + std::to_string(other.port)));
  e.refresh_status();
  EXPECT_TRUE(e.source_view().open) << "the working source did not come back";
  EXPECT_EQ(e.settings().source.uri, mine);
  EXPECT_NE(e.source_view().error.find(std::strerror(EADDRINUSE)), std::string::npos)
      << e.source_view().error;
}
