// The engine on a live udp:// feed (loopback only, 127.0.0.1), the simulator sending from a
// thread of the test: ingest runs ahead of processing, so a pipeline slower than the feed drops
// whole frames (counted) and no datagram; the headless loop (a frame per rotation) at ten times
// a radar's rate loses nothing.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/engine/engine.hpp"
#include "app/engine/report.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/sim_run.hpp"
#include "gpu/backend/make_pipeline.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/gated_pipeline.hpp"

using namespace sweepline;
using namespace sweepline::engine;
using namespace std::chrono;

namespace {

int free_port() {
  return test::free_udp_port();
}

EngineSettings live_settings() {
  EngineSettings s;
  s.processing.backend = "cpu";
  s.processing.size = 512;
  return s;
}

// The simulator to 127.0.0.1:port on a thread; sent() once joined.
class SimSender {
 public:
  SimSender(int port, const std::string& scenario, int radials, int cells, uint64_t rotations,
            double speed) {
    opt_.scenario = sim::make_scenario(scenario);
    opt_.scenario.radar.radials = radials;
    opt_.scenario.radar.cells = cells;
    opt_.rotations = rotations;
    opt_.speed = speed;
    opt_.udp = "127.0.0.1:" + std::to_string(port);
    thread_ = std::thread([this] {
      progress_ = sim::run_simulation(opt_);
      finished_ = true;
    });
  }
  ~SimSender() { join(); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  uint64_t sent() const { return progress_.datagrams - progress_.udp_dropped; }
  bool finished() const { return finished_; }

 private:
  sim::SimRunOptions opt_;
  sim::SimProgress progress_;
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

using test::Gate;
using GatedPipeline = test::GatedCpuPipeline;

// Waits until the engine's source has received and decoded `n` datagrams of one record each (at
// most `timeout_s`).
void wait_datagrams(Engine& e, uint64_t n, double timeout_s) {
  const auto end = steady_clock::now() + duration<double>(timeout_s);
  while (steady_clock::now() < end) {
    e.pump(0);
    e.refresh_status();
    const SourceStatus& st = e.source_view().status;
    if (st.datagrams >= n && st.records >= n) return;
    std::this_thread::sleep_for(milliseconds(10));
  }
}

}  // namespace

TEST(LiveIngest, ASlowPipelineDropsWholeFramesNeverDatagrams) {
  auto gate = std::make_shared<Gate>();
  Engine e(live_settings(), [gate](gpu::Backend) { return std::make_unique<GatedPipeline>(gate); });
  const int port = free_port();
  ASSERT_TRUE(e.open_source("udp://127.0.0.1:" + std::to_string(port))) << e.source_view().error;
  e.refresh_status();
  EXPECT_TRUE(e.source_view().live);
  // 8 rotations of a small radar at 10x: 2 s of feed.
  SimSender sender(port, "harbour", 512, 512, 8, 10);
  ASSERT_TRUE(e.pump_rotation(10));
  e.update();  // hands the first rotation over; the pipeline holds it
  EXPECT_TRUE(e.frame_in_flight());
  sender.join();
  wait_datagrams(e, sender.sent(), 5);
  // Everything arrived and was assembled while the pipeline was stuck on the first frame.
  e.refresh_status();
  const SourceView& v = e.source_view();
  EXPECT_EQ(v.status.datagrams, sender.sent());
  EXPECT_EQ(v.status.records, sender.sent());
  EXPECT_EQ(v.status.lost_messages, 0u);
  EXPECT_EQ(v.status.kernel_dropped, 0u);
  EXPECT_EQ(v.status.errors.count("queue_full"), 0u);
  EXPECT_GE(v.rotations, 7u);
  gate->release();
  ASSERT_TRUE(e.process_and_wait());  // the first frame, then the newest state
  EXPECT_EQ(e.frames_processed(), 2u);
  e.refresh_status();
  // Handed off after rotation 1, then after 7 or 8: the rotations between never reached the
  // pipeline on their own.
  EXPECT_GE(e.source_view().frames_dropped, 5u);
  EXPECT_LE(e.source_view().frames_dropped, 6u);
  const nlohmann::json in = input_report(e);
  EXPECT_EQ(in["frames_dropped"], e.source_view().frames_dropped);
  EXPECT_EQ(in["datagrams"], sender.sent());
  EXPECT_EQ(in["queue_full"], 0u);
}

TEST(LiveIngest, HeadlessLoopAtTenTimesTheStressSceneLosesNothing) {
  // The stress scene (4096 radials x 4096 cells, 24 rpm) at 10x: 16,388 datagrams/s of 4 KB for
  // 2 s, a frame per rotation on the CPU backend (scripts/loopback-stress runs the executable the
  // same way; docs/perf/input.md).
  Engine e(live_settings());
  const int port = free_port();
  ASSERT_TRUE(e.open_source("udp://127.0.0.1:" + std::to_string(port))) << e.source_view().error;
  SimSender sender(port, "stress", 4096, 4096, 8, 10);
  int frames = 0;
  for (;;) {  // as view --headless: a rotation, then its frame, until the feed has ended
    const bool ended = sender.finished();
    if (e.pump_rotation(ended ? 1 : 10)) {
      if (e.process_and_wait()) ++frames;
    } else if (ended) {
      break;
    }
  }
  sender.join();
  wait_datagrams(e, sender.sent(), 5);
  e.refresh_status();
  const SourceView& v = e.source_view();
  EXPECT_EQ(sender.sent(), 8u * 4097u);
  EXPECT_EQ(v.status.datagrams, sender.sent());
  EXPECT_EQ(v.status.lost_messages, 0u);
  EXPECT_EQ(v.status.kernel_dropped, 0u);
  EXPECT_EQ(v.status.errors.count("queue_full"), 0u);
  EXPECT_GE(frames, 1);
  RecordProperty("frames", frames);
  RecordProperty("frames_dropped", std::to_string(v.frames_dropped));
}

TEST(LiveIngest, StopFlagEndsTheWaitForARotation) {
  Engine e(live_settings());
  std::atomic<bool> stop{false};
  e.set_stop_flag(&stop);
  ASSERT_TRUE(e.open_source("udp://127.0.0.1:" + std::to_string(free_port())));
  std::thread t([&] {
    std::this_thread::sleep_for(milliseconds(200));
    stop = true;
  });
  const auto t0 = steady_clock::now();
  EXPECT_FALSE(e.pump_rotation(30));  // a silent feed: only the flag ends the wait
  EXPECT_LT(duration<double>(steady_clock::now() - t0).count(), 5.0);
  t.join();
  EXPECT_TRUE(e.stop_requested());
}
