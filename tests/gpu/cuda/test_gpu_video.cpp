// The video stage and the plots on the GPU against the CPU twin, frame after frame (the clutter
// map carries over): the processed video is identical (integer rules, gpu/video_math.hpp), so the
// scan-converted images and the plots are too. Simulated harbour and open-sea frames, random
// frames, partial frames whose dirty span wraps through north, auto and manual knobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "app/sim/scene.hpp"
#include "gpu/backend/make_pipeline.hpp"
#include "gpu/video_tuning.hpp"
#include "tests/support/frames.hpp"
#include "tests/support/gpu_skip.hpp"
#include "tests/support/image_compare.hpp"

namespace sweepline::gpu {
namespace {

void expect_same_plots(const FrameResult& a, const FrameResult& b, int frame) {
  ASSERT_EQ(a.plots.size(), b.plots.size()) << "frame " << frame;
  for (size_t i = 0; i < a.plots.size(); ++i) {
    EXPECT_EQ(a.plots[i].label, b.plots[i].label) << "frame " << frame;
    EXPECT_NEAR(a.plots[i].range_m, b.plots[i].range_m, 1e-6) << "frame " << frame;
    EXPECT_NEAR(a.plots[i].bearing_deg, b.plots[i].bearing_deg, 1e-6) << "frame " << frame;
    EXPECT_EQ(a.plots[i].time_s, b.plots[i].time_s) << "frame " << frame;
    EXPECT_EQ(a.plots[i].near_land, b.plots[i].near_land) << "frame " << frame;
    EXPECT_EQ(a.plots[i].land_unknown, b.plots[i].land_unknown) << "frame " << frame;
  }
}

PipelineParams params(int size) {
  PipelineParams p;
  p.width = p.height = size;
  p.video.enabled = true;
  p.threshold = 72;
  p.denoise = DenoiseMode::None;
  p.label_enabled = true;
  p.label.min_area = 6;
  return p;
}

TEST(GpuVideo, SimulatedScenesMatchTheCpuFrameAfterFrame) {
  SWL_SKIP_WITHOUT_CUDA();
  for (const char* name : {"harbour", "open-sea"}) {
    sim::Scenario sc = sim::make_scenario(name);
    sc.seed = 11;
    sc.radar.radials = 2048;
    sc.radar.cells = 2048;
    sim::Scene scene(sc);
    auto gpu = make_pipeline(Backend::Cuda);
    auto cpu = make_pipeline(Backend::Cpu);
    PipelineParams p = params(1024);
    PolarFrame f(sc.radar.radials, sc.radar.cells, sc.radar.range_m());
    f.row_time_s.assign(size_t(f.azimuths), 0.0);
    std::vector<uint8_t> cells;
    for (int k = 0; k < 9; ++k) {
      scene.render_rotation(cells);
      f.dirty = {0, f.azimuths};
      if (k == 7) f.dirty = {f.azimuths - 300, 700};  // wraps through north
      // Only the rows a frame marks dirty change, as from the sweep assembler.
      for (int i = 0; i < f.dirty.count; ++i) {
        const int a = (f.dirty.first + i) % f.azimuths;
        std::copy_n(cells.data() + size_t(a) * size_t(f.range_bins), f.range_bins, f.row(a));
        f.row_time_s[size_t(a)] = (k + (a + 0.5) / f.azimuths) * sc.radar.period_s();
      }
      f.rotation = uint64_t(k + 1);
      if (k == 8) {
        p.video.gain_auto = p.video.sea_auto = p.video.rain_auto = false;
        p.video.gain = 60;
        p.video.sea = 25;
        p.video.rain = 70;
      }
      cpu->process(f, p);
      gpu->process(f, p);
      const FrameResult& rc = cpu->result();
      const FrameResult& rg = gpu->result();
      ASSERT_EQ(test::max_diff(cpu->scan_image(), gpu->scan_image()), 0) << name << " frame " << k;
      EXPECT_EQ(rc.count, rg.count) << name << " frame " << k;
      expect_same_plots(rc, rg, k);
      // Until the clutter map has seen every row kLandMinAge times, land is unknown for every
      // plot; after, it is known, and the open water's plots are not near land.
      const auto unknown = std::count_if(rc.plots.begin(), rc.plots.end(),
                                         [](const Plot& pl) { return pl.land_unknown; });
      const auto near = std::count_if(rc.plots.begin(), rc.plots.end(),
                                      [](const Plot& pl) { return pl.near_land; });
      if (k + 1 < kLandMinAge) {
        EXPECT_EQ(size_t(unknown), rc.plots.size()) << name << " " << k;
      }
      if (k == 6) {
        EXPECT_EQ(unknown, 0) << name;
        EXPECT_LT(size_t(near), rc.plots.size()) << name;
      }
      scene.next_rotation();
    }
  }
}

TEST(GpuVideo, RandomFramesAndOddShapesMatchTheCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  // Range lengths around the kernel's 2048-cell chunk and a coarse one (short rain window).
  for (int bins : {700, 2048, 2049, 5000}) {
    auto gpu = make_pipeline(Backend::Cuda);
    auto cpu = make_pipeline(Backend::Cpu);
    PipelineParams p = params(512);
    PolarFrame f;
    for (int k = 0; k < 8; ++k) {
      const PolarFrame next = testing::structured_frame(360, bins, 20000, 40 + uint32_t(k));
      if (k < 6) {
        f = next;
      } else {  // only the dirty rows change, wrapping through north
        f.dirty = {300, 100};
        for (int i = 0; i < f.dirty.count; ++i) {
          const int a = (f.dirty.first + i) % f.azimuths;
          std::copy_n(next.row(a), f.range_bins, f.row(a));
        }
      }
      cpu->process(f, p);
      gpu->process(f, p);
      cpu->result();
      gpu->result();
      ASSERT_EQ(test::max_diff(cpu->scan_image(), gpu->scan_image()), 0)
          << "bins " << bins << " frame " << k;
    }
  }
}

}  // namespace
}  // namespace sweepline::gpu
