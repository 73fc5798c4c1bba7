// The engine without a window (links sweepline_engine only: no GL, GLFW or ImGui): the bundled
// capture through the CPU backend, replay controls, recording, backend fallbacks, the display
// port's two ways (host images, surfaces in place), and the frame path's promise that the
// caller never waits: a frame is collected one update() late, through a non-blocking query.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/common/check.hpp"
#include "app/engine/engine.hpp"
#include "app/engine/report.hpp"
#include "gpu/backend/cuda_availability.hpp"
#include "gpu/backend/make_pipeline.hpp"
#include "tests/support/gated_pipeline.hpp"

using namespace sweepline;
using namespace sweepline::engine;
namespace fs = std::filesystem;

namespace {

const std::string kCapture = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sweepline_test_engine_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

// Headless-style settings: the CPU backend, the file read unpaced and once.
EngineSettings cpu_settings() {
  EngineSettings s;
  s.processing.backend = "cpu";
  s.source.speed = 0;
  s.source.loop = false;
  return s;
}

// The same, asking for the CUDA backend (real, or faked through device_factory).
EngineSettings cuda_settings() {
  EngineSettings s = cpu_settings();
  s.processing.backend = "cuda";
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A device backend stand-in: process() only "enqueues" (records the call); the frame is done
// when the test releases it. result() on an unfinished frame would block on a real device: the
// fake counts such calls instead.
struct DeviceControl {
  std::atomic<bool> done{false};
  std::atomic<int> processed{0};
  std::atomic<int> blocking_result_calls{0};
  gpu::DisplayTargets last_targets;
  bool had_targets = false;
  // colour_labels(): calls, the identities and the target of the last one.
  int colourings = 0;
  std::vector<int32_t> colour_ids;
  unsigned long long colour_target = 0;
};

class FakeDevicePipeline final : public gpu::Pipeline {
 public:
  explicit FakeDevicePipeline(std::shared_ptr<DeviceControl> c) : c_(std::move(c)) {}
  gpu::Backend backend() const override { return gpu::Backend::Cuda; }
  void process(const PolarFrame&, const gpu::PipelineParams& params,
               const gpu::DisplayTargets* targets) override {
    c_->done = false;
    c_->had_targets = targets != nullptr;
    if (targets) c_->last_targets = *targets;
    ++c_->processed;
    r_.width = params.width;
    r_.height = params.height;
    r_.frame = uint64_t(c_->processed.load());
    r_.times = {{"scan", 1.0}, {"label", 2.0}, {"label:finish", 0.5}};
    r_.labelled = true;
    r_.count = 1;
    ccl::Component comp;
    comp.label = 1;
    comp.area = 9;
    comp.cx = comp.cy = 20;
    r_.components.assign(1, comp);
  }
  void colour_labels(const std::vector<int32_t>& ids, const gpu::DisplayTargets& t) override {
    ++c_->colourings;
    c_->colour_ids = ids;
    c_->colour_target = t.label_colour;
  }
  const gpu::FrameResult& result() override {
    if (!c_->done) ++c_->blocking_result_calls;
    return r_;
  }
  bool result_ready() override { return c_->done; }
  Image8 scan_image() override { return Image8(r_.width, r_.height); }
  Image8 denoised_image() override { return Image8(r_.width, r_.height); }
  Image8 binary_image() override { return Image8(r_.width, r_.height); }
  ImageI32 label_image() override { return ImageI32(r_.width, r_.height); }

 private:
  std::shared_ptr<DeviceControl> c_;
  gpu::FrameResult r_;
};

using test::Gate;
using test::GatedCpuPipeline;

// The fake device for Backend::Cuda, the real CPU pipeline otherwise.
PipelineFactory device_factory(std::shared_ptr<DeviceControl> c) {
  return [c](gpu::Backend b) -> std::unique_ptr<gpu::Pipeline> {
    if (b == gpu::Backend::Cuda) return std::make_unique<FakeDevicePipeline>(c);
    return gpu::make_pipeline(gpu::Backend::Cpu);
  };
}

// A display that records what reaches it. `surfaces`: hand out in-place targets to device
// pipelines; `refuse`: throw DisplayUnavailable instead.
class RecordingDisplay final : public DisplayPort {
 public:
  bool surfaces = false;
  bool refuse = false;
  int maps = 0, label_maps = 0, presents = 0, leases_alive = 0, leases_ended = 0;
  HostImages last;

  std::unique_ptr<SurfaceLease> map_surfaces(const gpu::Pipeline& p, int, int, bool,
                                             StageTimes& times) override {
    ++maps;
    if (p.backend() == gpu::Backend::Cpu || !surfaces) return nullptr;
    if (refuse) throw DisplayUnavailable("CUDA-GL interop refused: test display");
    times.push_back({"test map", 0.25});
    return std::make_unique<Lease>(*this, gpu::DisplayTargets{11, 12, 13, 0});
  }
  std::unique_ptr<SurfaceLease> map_label_surface(const gpu::Pipeline& p) override {
    ++label_maps;
    EXPECT_EQ(p.backend(), gpu::Backend::Cuda);
    return std::make_unique<Lease>(*this, gpu::DisplayTargets{0, 0, 0, 14});
  }
  void present(const HostImages& images, StageTimes& times) override {
    ++presents;
    last = images;
    times.push_back({"upload", 0.5});
  }

 private:
  class Lease final : public SurfaceLease {
   public:
    Lease(RecordingDisplay& d, gpu::DisplayTargets t) : d_(d), t_(t) { ++d_.leases_alive; }
    ~Lease() override {
      --d_.leases_alive;
      ++d_.leases_ended;
    }
    const gpu::DisplayTargets& targets() const override { return t_; }

   private:
    RecordingDisplay& d_;
    gpu::DisplayTargets t_;
  };
};

// Shows the engine on `d` and assembles one rotation of the bundled capture, not yet processed.
void assemble_one_rotation_for(Engine& e, RecordingDisplay& d) {
  e.set_display(&d);
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
}

bool has_stage(const StageTimes& times, const std::string& stage) {
  return std::any_of(times.begin(), times.end(),
                     [&](const StageTime& t) { return t.stage == stage; });
}

}  // namespace

TEST(Engine, BundledCaptureGivesComponentsEveryRotation) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture)) << e.source_view().error;
  EXPECT_EQ(e.backend_name(), "cpu");
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(e.pump_rotation(60)) << "rotation " << i;
    ASSERT_TRUE(e.process_and_wait()) << e.processing_error();
    const gpu::FrameResult* r = e.result();
    ASSERT_NE(r, nullptr);
    // 50 vessels plus CFAR's false alarms on the clutter (tests/render bounds them the same way).
    EXPECT_GE(r->count, 50);
    EXPECT_LE(r->count, 400);
    EXPECT_EQ(size_t(r->count), r->components.size());
    EXPECT_EQ(e.frames_processed(), uint64_t(i + 1));
  }
  EXPECT_FALSE(e.frame_in_flight());
  EXPECT_EQ(e.geometry().width, 1536);  // the CPU's automatic display size
  EXPECT_GT(e.geometry().frame_range_m, 0);
  EXPECT_FALSE(e.in_place());
  const auto& order = e.stage_order();
  for (const char* stage : {"scan", "denoise", "threshold", "label"})
    EXPECT_NE(std::find(order.begin(), order.end(), stage), order.end()) << stage;
  EXPECT_EQ(e.frame_ms_history().values.size(), 3u);
  EXPECT_GT(e.frame_ms_history().last(), 0.0f);
  // The report is built from the engine alone.
  const auto header = run_report_header(e);
  EXPECT_EQ(header["backend"], "cpu");
  EXPECT_EQ(header["display"]["width"], 1536);
  const auto frame = frame_report(e, 2);
  EXPECT_EQ(frame["count"].get<int>(), e.result()->count);
  EXPECT_EQ(frame["components"].size(), e.result()->components.size());
}

TEST(Engine, WindowPathAndHeadlessPathGiveTheSameComponents) {
  // The non-blocking update() loop must process the same rotation as process_and_wait().
  Engine a(cpu_settings()), b(cpu_settings());
  ASSERT_TRUE(a.open_source(kCapture));
  ASSERT_TRUE(b.open_source(kCapture));
  ASSERT_TRUE(a.pump_rotation(60));
  ASSERT_TRUE(b.pump_rotation(60));
  ASSERT_TRUE(a.process_and_wait());
  EXPECT_FALSE(b.update()) << "a frame submitted now cannot be collected by the same call";
  const auto t0 = std::chrono::steady_clock::now();
  while (!b.update() && seconds_since(t0) < 60)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_NE(b.result(), nullptr) << b.processing_error();
  ASSERT_EQ(a.result()->count, b.result()->count);
  for (size_t i = 0; i < a.result()->components.size(); ++i) {
    EXPECT_EQ(a.result()->components[i].area, b.result()->components[i].area) << i;
    EXPECT_EQ(a.result()->components[i].xmin, b.result()->components[i].xmin) << i;
  }
}

TEST(Engine, DeviceResultIsCollectedOneFrameLateWithoutWaiting) {
  auto c = std::make_shared<DeviceControl>();
  Engine e(cuda_settings(), device_factory(c));
  ASSERT_EQ(e.backend_name(), "cuda") << e.backend_note();
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
  EXPECT_FALSE(e.update());  // hands the frame over
  EXPECT_EQ(c->processed, 1);
  EXPECT_TRUE(e.frame_in_flight());
  for (int i = 0; i < 5; ++i) {  // UI frames while the device is still busy
    EXPECT_FALSE(e.update());
    EXPECT_EQ(e.result(), nullptr);
  }
  EXPECT_EQ(c->processed, 1) << "no second frame while one is in flight";
  c->done = true;
  EXPECT_TRUE(e.update());  // collected on the next UI frame after the query says done
  ASSERT_NE(e.result(), nullptr);
  EXPECT_EQ(e.result()->count, 1);
  EXPECT_EQ(e.frames_processed(), 1u);
  EXPECT_EQ(c->blocking_result_calls, 0) << "result() was called before result_ready()";
  EXPECT_FALSE(c->had_targets) << "no display: no surfaces";
  // Frame total on a device: the device's span (top-level stages: scan 1 + label 2 ms).
  EXPECT_FLOAT_EQ(e.frame_ms_history().last(), 3.0f);
  // The headless path waits explicitly (a blocking result() is its right).
  ASSERT_TRUE(e.pump_rotation(60));
  c->done = false;
  EXPECT_TRUE(e.process_and_wait());
  EXPECT_EQ(c->processed, 2);
}

TEST(Engine, CpuWorkerNeverBlocksTheCaller) {
  auto gate = std::make_shared<Gate>();
  Engine e(cpu_settings(), [gate](gpu::Backend) -> std::unique_ptr<gpu::Pipeline> {
    return std::make_unique<GatedCpuPipeline>(gate);
  });
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
  std::thread releaser([gate] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    gate->release();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(e.update());
  EXPECT_FALSE(e.update());
  const double took = seconds_since(t0);
  EXPECT_LT(took, 1.0) << "update() waited for the worker";
  EXPECT_TRUE(e.frame_in_flight());
  EXPECT_EQ(e.result(), nullptr);
  bool collected = false;
  while (!collected && seconds_since(t0) < 60) {
    collected = e.update();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  releaser.join();
  EXPECT_TRUE(collected);
  ASSERT_NE(e.result(), nullptr);
  EXPECT_GT(e.result()->count, 0);
}

TEST(Engine, HostImagesReachTheDisplayOnTheCpu) {
  RecordingDisplay d;
  d.surfaces = true;  // offered, but the CPU backend has no device to write them
  Engine e(cpu_settings());
  ASSERT_NO_FATAL_FAILURE(assemble_one_rotation_for(e, d));
  ASSERT_TRUE(e.process_and_wait());
  EXPECT_EQ(d.maps, 0);
  EXPECT_EQ(d.presents, 1);
  EXPECT_EQ(d.last.scan.width, e.display_size());
  EXPECT_EQ(d.last.binary.height, e.display_size());
  EXPECT_FALSE(d.last.labels.empty()) << "labelling is on by default";
  // Each label's identity travels with the images (the first frame's identities are the labels).
  ASSERT_EQ(d.last.label_ids.size(), e.result()->components.size() + 1);
  for (size_t l = 1; l < d.last.label_ids.size(); ++l) EXPECT_EQ(d.last.label_ids[l], int32_t(l));
  EXPECT_TRUE(has_stage(e.result()->times, "upload"));
  e.set_display(nullptr);
}

TEST(Engine, DeviceFramesAreWrittenInPlace) {
  auto c = std::make_shared<DeviceControl>();
  RecordingDisplay d;
  d.surfaces = true;
  Engine e(cuda_settings(), device_factory(c));
  ASSERT_NO_FATAL_FAILURE(assemble_one_rotation_for(e, d));
  e.update();
  ASSERT_EQ(c->processed, 1);
  EXPECT_TRUE(c->had_targets);
  EXPECT_EQ(c->last_targets.scan, 11u);
  EXPECT_EQ(c->last_targets.label_colour, 0u) << "label colours come once the frame is in";
  EXPECT_EQ(d.leases_alive, 0) << "surfaces must be unmapped right after the frame is enqueued";
  EXPECT_EQ(d.leases_ended, 1);
  EXPECT_EQ(c->colourings, 0);
  c->done = true;
  ASSERT_TRUE(e.update());
  EXPECT_TRUE(e.in_place());
  EXPECT_EQ(d.presents, 0) << "an in-place frame needs no host images";
  EXPECT_TRUE(has_stage(e.result()->times, "test map"));
  // The collected frame's labels coloured in place through their identities, on the label
  // layer's own mapping, which ended again.
  EXPECT_EQ(d.label_maps, 1);
  EXPECT_EQ(c->colourings, 1);
  EXPECT_EQ(c->colour_target, 14u);
  EXPECT_EQ(c->colour_ids, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(d.leases_alive, 0);
  EXPECT_TRUE(has_stage(e.result()->times, "label colour"));
  e.set_display(nullptr);
}

TEST(Engine, RefusedSurfacesFallBackToTheCpuWithTheReason) {
  auto c = std::make_shared<DeviceControl>();
  RecordingDisplay d;
  d.surfaces = true;
  d.refuse = true;
  Engine e(cuda_settings(), device_factory(c));
  ASSERT_NO_FATAL_FAILURE(assemble_one_rotation_for(e, d));
  ASSERT_TRUE(e.process_and_wait()) << e.processing_error();
  EXPECT_EQ(e.backend_name(), "cpu");
  EXPECT_NE(e.backend_note().find("interop refused"), std::string::npos) << e.backend_note();
  EXPECT_NE(e.backend_note().find("using the CPU backend"), std::string::npos);
  EXPECT_EQ(c->processed, 0);
  EXPECT_EQ(d.presents, 1);
  EXPECT_EQ(d.last.scan.width, 1536) << "the CPU's display size";
  EXPECT_FALSE(e.in_place());
  e.set_display(nullptr);
}

TEST(Engine, CudaUpdateLoopCollectsTheSameFrameAsAWaitedOne) {
  // The real device: update() returns while the stream works and collects once the event query
  // says done; the components equal those of a frame waited for. Skips without a device.
  if (auto reason = gpu::cuda_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  Engine a(cuda_settings()), b(cuda_settings());
  ASSERT_EQ(a.backend_name(), "cuda") << a.backend_note();
  ASSERT_TRUE(a.open_source(kCapture));
  ASSERT_TRUE(b.open_source(kCapture));
  ASSERT_TRUE(a.pump_rotation(60));
  ASSERT_TRUE(b.pump_rotation(60));
  ASSERT_TRUE(a.process_and_wait()) << a.processing_error();
  EXPECT_FALSE(b.update());
  int polls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (!b.update() && seconds_since(t0) < 60) ++polls;
  ASSERT_NE(b.result(), nullptr) << b.processing_error();
  EXPECT_EQ(a.result()->count, b.result()->count);
  ASSERT_EQ(a.result()->components.size(), b.result()->components.size());
  for (size_t i = 0; i < a.result()->components.size(); ++i)
    EXPECT_EQ(a.result()->components[i].area, b.result()->components[i].area) << i;
  EXPECT_EQ(b.geometry().width, 4096);  // CUDA's automatic display size
  std::printf("collected after %d non-blocking polls\n", polls);
}

TEST(Engine, CudaWithoutADeviceFallsBackToTheCpuWithAMessage) {
  if (gpu::cuda_unavailable_reason().empty()) GTEST_SKIP() << "a CUDA device is present";
  Engine e(cuda_settings());
  EXPECT_EQ(e.backend_name(), "cpu");
  EXPECT_NE(e.backend_note().find("CUDA backend unavailable, using the CPU"), std::string::npos)
      << e.backend_note();
  EXPECT_EQ(e.settings().processing.backend, "cuda") << "the preference is kept for next time";
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
  EXPECT_TRUE(e.process_and_wait());
  e.set_backend("gpu9000");
  EXPECT_EQ(e.backend_name(), "cpu");
  EXPECT_NE(e.backend_note().find("gpu9000"), std::string::npos) << e.backend_note();
}

TEST(Engine, ProcessingErrorsAreKeptAsMessagesAndClearOnTheNextGoodFrame) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture));
  gpu::PipelineParams bad = e.settings().processing.params;
  bad.gaussian_sigma = 100;
  e.set_params(bad);
  ASSERT_TRUE(e.pump_rotation(60));
  EXPECT_FALSE(e.process_and_wait());
  EXPECT_NE(e.processing_error().find("gaussian_sigma"), std::string::npos) << e.processing_error();
  EXPECT_EQ(e.result(), nullptr);
  e.set_params(ProcessingSettings::default_params());
  ASSERT_TRUE(e.pump_rotation(60));
  EXPECT_TRUE(e.process_and_wait());
  EXPECT_TRUE(e.processing_error().empty());
  EXPECT_NE(e.result(), nullptr);
}

TEST(Engine, ReopeningTheSourceDropsTheFrameInFlight) {
  auto c = std::make_shared<DeviceControl>();
  Engine e(cuda_settings(), device_factory(c));
  ASSERT_TRUE(e.open_source(kCapture));
  ASSERT_TRUE(e.pump_rotation(60));
  e.update();
  ASSERT_TRUE(e.frame_in_flight());
  ASSERT_TRUE(e.open_source(kCapture));
  c->done = true;
  EXPECT_FALSE(e.update()) << "the old source's frame must not show over the new one";
  EXPECT_EQ(e.result(), nullptr);
  EXPECT_EQ(e.frames_processed(), 0u);
}

TEST(Engine, PauseStepAndSeekOnAFile) {
  Engine e(cpu_settings());
  ASSERT_TRUE(e.open_source(kCapture));
  e.refresh_status();
  ASSERT_TRUE(e.source_view().replayable);
  const uint64_t count = e.source_view().rotation_count;
  ASSERT_GE(count, 4u);
  e.set_paused(true);
  EXPECT_TRUE(e.paused());
  EXPECT_EQ(e.pump(100), 0u) << "a paused replay delivers nothing";
  e.step_rotation(+1);
  EXPECT_TRUE(e.paused());
  EXPECT_GT(e.pump(500), 0u) << "a step delivers one rotation while paused";
  e.seek_rotation(2);
  e.refresh_status();
  EXPECT_EQ(e.source_view().shown_rotation, 2u);
  e.step_rotation(-1);
  e.refresh_status();
  EXPECT_EQ(e.source_view().shown_rotation, 1u);
  e.set_paused(false);
  EXPECT_FALSE(e.paused());
  EXPECT_TRUE(e.pump_rotation(60));
  EXPECT_TRUE(e.process_and_wait());
  e.set_speed(4);
  e.set_loop(true);
  e.refresh_status();
  EXPECT_EQ(e.source_view().speed, 4);
  EXPECT_TRUE(e.source_view().loop);
  EXPECT_EQ(e.settings().source.speed, 4);
}

TEST(Engine, RecordsTheFeedToAPcapThatReplays) {
  const fs::path out = scratch("recorded.pcap");
  {
    Engine e(cpu_settings());
    ASSERT_TRUE(e.open_source(kCapture));
    ASSERT_TRUE(e.start_recording(out.string())) << e.recording_error();
    EXPECT_TRUE(e.recording());
    EXPECT_FALSE(e.recording_raw()) << "a file has no raw tap: records are re-encoded";
    ASSERT_TRUE(e.pump_rotation(60));
    ASSERT_TRUE(e.pump_rotation(60));
    EXPECT_GT(e.recorded_datagrams(), 100u);
    e.stop_recording();
    EXPECT_FALSE(e.recording());
    EXPECT_FALSE(e.start_recording("/nonexistent/dir/x.pcap"));
    EXPECT_FALSE(e.recording_error().empty());
  }
  std::ifstream in(out, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  EXPECT_TRUE((uint8_t(magic[0]) == 0xd4 && uint8_t(magic[1]) == 0xc3) ||
              (uint8_t(magic[0]) == 0x4d && uint8_t(magic[1]) == 0x3c))
      << "not a pcap";
  Engine back(cpu_settings());
  ASSERT_TRUE(back.open_source(out.string())) << back.source_view().error;
  ASSERT_TRUE(back.pump_rotation(60));
  ASSERT_TRUE(back.process_and_wait()) << back.processing_error();
  EXPECT_GT(back.result()->count, 0);
}

TEST(Engine, AMissingSourceIsAMessageNotAnError) {
  Engine e(cpu_settings());
  EXPECT_FALSE(e.open_source("/nonexistent/capture.pcap"));
  EXPECT_NE(e.source_view().error.find("/nonexistent/capture.pcap"), std::string::npos)
      << e.source_view().error;
  EXPECT_FALSE(e.source_view().open);
  EXPECT_FALSE(e.pump_rotation(1));
  EXPECT_FALSE(e.update());
  EXPECT_EQ(e.result(), nullptr);
}

TEST(EngineSettings, JsonRoundTripAndBadValues) {
  SourceSettings so;
  so.uri = "udp://239.0.1.2:8600";
  so.udp_port = 9000;
  so.speed = 0.5;
  ProcessingSettings pr;
  pr.backend = "cpu";
  pr.size = 2048;
  pr.params.threshold = 99;
  pr.params.label.algorithm = ccl::Algorithm::Kang;
  pr.azimuths = 2048;
  pr.params.fft.gain = 3.5;
  SourceSettings so2;
  ProcessingSettings pr2;
  read_source(source_json(so), so2);
  read_processing(processing_json(pr), pr2);
  EXPECT_EQ(source_json(so2), source_json(so));
  EXPECT_EQ(processing_json(pr2), processing_json(pr));
  EXPECT_EQ(pr2.params.threshold, 99);
  EXPECT_EQ(pr2.azimuths, 2048);
  EXPECT_EQ(pr2.params.fft.gain, 3.5);
  EXPECT_EQ(so2.udp_port, 9000);
  // The file's keys, unchanged from before the engine had its own module.
  const auto j = processing_json(pr);
  for (const char* k : {"backend", "size", "azimuths", "range_bins", "pipeline"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_TRUE(j["pipeline"].contains("min_area"));
  gpu::PipelineParams p;
  EXPECT_ANY_THROW(read_params(nlohmann::json{{"algorithm", "nonsense"}}, p));
  EXPECT_ANY_THROW(read_params(nlohmann::json{{"threshold", "high"}}, p));
}

TEST(Engine, SourceFormKeepsTheOpenSourcesUriSpeedAndLoop) {
  Engine e(cpu_settings());
  SourceSettings form = e.settings().source;
  form.uri = "sim://stress";
  form.speed = 8;
  form.scenario = "open-sea";
  form.udp_port = 9100;
  e.set_source_form(form);
  EXPECT_EQ(e.settings().source.scenario, "open-sea");
  EXPECT_EQ(e.settings().source.udp_port, 9100);
  EXPECT_EQ(e.settings().source.uri, cpu_settings().source.uri);
  EXPECT_EQ(e.settings().source.speed, 0);
}

// Settings: values out of range are refused with the key that holds them, never clamped.
TEST(EngineSettings, RefusesBadValuesNamingTheKey) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"pipeline": {"video": {"gain": 1e300}}})", "processing.pipeline.video.gain"},
      {R"({"pipeline": {"video": {"sea": -5}}})", "processing.pipeline.video.sea"},
      {R"({"pipeline": {"plot": {"pulse_m": 0}}})", "processing.pipeline.plot.pulse_m"},
      {R"({"pipeline": {"threshold": 300}})", "processing.pipeline.threshold"},
      {R"({"pipeline": {"gaussian_sigma": 1e300}})", "processing.pipeline.gaussian_sigma"},
      {R"({"pipeline": {"connectivity": 6}})", "processing.pipeline.connectivity"},
      {R"({"size": -1})", "processing.size"},
      {R"({"azimuths": 1000000})", "processing.azimuths"},
      {R"({"azimuths": 65536, "range_bins": 65536})", "processing.azimuths"},
      {R"({"azimuths": 16384, "range_bins": 16384})",
       "processing.azimuths x processing.range_bins"},
      {R"({"size": 16384})", "processing.size"},
      {R"({"backend": "quantum"})", "processing.backend"},
  };
  for (const auto& [text, key] : bad) {
    ProcessingSettings s;
    try {
      read_processing(nlohmann::json::parse(text), s);
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  SourceSettings so;
  EXPECT_THROW(read_source(nlohmann::json::parse(R"({"udp_port": 70000})"), so), Error);
  // Good values round-trip, the video and plot groups included.
  ProcessingSettings s;
  s.params.video.sea_auto = false;
  s.params.video.sea = 35;
  s.params.plot.confirm_scans = 1;
  ProcessingSettings back;
  read_processing(processing_json(s), back);
  EXPECT_FALSE(back.params.video.sea_auto);
  EXPECT_EQ(back.params.video.sea, 35);
  EXPECT_EQ(back.params.plot.confirm_scans, 1);
  EXPECT_TRUE(ProcessingSettings::default_params().video.enabled);
}
