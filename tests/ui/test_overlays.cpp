// What the PPI overlay decides to draw, without ImGui or GL: the filter legend's text from the
// pipeline parameters, and the boxes (plots, not every component; a plot's box is its
// component's bounding box in world metres), on hand-made results and on the bundled capture
// through the engine at the console's default settings.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/engine/engine.hpp"
#include "app/engine/engine_settings.hpp"
#include "gpu/pipeline.hpp"
#include "ui/overlays.hpp"

using namespace sweepline;
using namespace sweepline::ui;

namespace {

constexpr double kPi = 3.14159265358979323846;

ccl::Component component(int32_t label, int xmin, int ymin, int xmax, int ymax) {
  ccl::Component c;
  c.label = label;
  c.xmin = xmin;
  c.ymin = ymin;
  c.xmax = xmax;
  c.ymax = ymax;
  c.area = int64_t(xmax - xmin + 1) * (ymax - ymin + 1);
  return c;
}

gpu::Plot plot_of(int32_t label) {
  gpu::Plot p;
  p.label = label;
  return p;
}

// 100 x 100 pixels of 10 m, centred 200 m east of the radar.
DisplayGeometry geometry() {
  DisplayGeometry g;
  g.width = 100;
  g.height = 100;
  g.metres_per_pixel = 10;
  g.origin_east_m = 200;
  g.origin_north_m = 0;
  g.frame_range_m = 500;
  return g;
}

// The console's defaults with the tuned advanced values pinned, so that a retuning of those
// does not change what these tests expect.
gpu::PipelineParams pinned_defaults() {
  gpu::PipelineParams p = engine::ProcessingSettings::default_params();
  p.denoise = gpu::DenoiseMode::Gaussian;
  p.gaussian_sigma = 1.0f;
  p.threshold = 48;
  p.label.min_area = 6;
  p.label.max_area = 20000;
  p.plot.max_target_m = 300;
  return p;
}

}  // namespace

TEST(FilterLegend, ConsoleDefaultsShowEveryControlAutomatic) {
  const auto lines = filter_legend(engine::ProcessingSettings::default_params(), false);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "GAIN A  SEA A  RAIN A  MAP ON  2-SCAN");
  EXPECT_EQ(filter_legend(pinned_defaults(), false)[1],
            "GAUSS 1.0  THR 48  AREA 6..20000  TGT 300 M");
  gpu::PipelineParams p = pinned_defaults();
  p.denoise = gpu::DenoiseMode::None;
  p.threshold = 72;
  EXPECT_EQ(filter_legend(p, false)[1], "NO FILTER  THR 72  AREA 6..20000  TGT 300 M");
}

TEST(FilterLegend, ManualKnobsShowTheirValues) {
  gpu::PipelineParams p = pinned_defaults();
  p.video.gain_auto = false;
  p.video.gain = 62.4f;
  p.video.sea_auto = false;
  p.video.sea = 0;
  p.video.rain_auto = false;
  p.video.rain = 30;
  p.video.clutter_map = false;
  p.plot.confirm_scans = 1;
  EXPECT_EQ(filter_legend(p, false)[0], "GAIN 62  SEA 0  RAIN 30  MAP OFF  1-SCAN");
  p.video.sea_auto = true;  // one automatic among manual ones
  EXPECT_EQ(filter_legend(p, false)[0], "GAIN 62  SEA A  RAIN 30  MAP OFF  1-SCAN");
}

TEST(FilterLegend, StagesThatAreOffSaySo) {
  gpu::PipelineParams p = pinned_defaults();
  p.video.enabled = false;
  EXPECT_EQ(filter_legend(p, false)[0], "VIDEO OFF  2-SCAN");
  p.label_enabled = false;
  const auto lines = filter_legend(p, true);
  EXPECT_EQ(lines[0], "VIDEO OFF  PLOTS OFF");
  // Without labelling there are no areas, target sizes or components to speak of.
  EXPECT_EQ(lines[1], "GAUSS 1.0  THR 48");
}

TEST(FilterLegend, AdvancedLineFollowsTheDenoiserAndTheBoxes) {
  gpu::PipelineParams p = pinned_defaults();
  p.denoise = gpu::DenoiseMode::Cfar;
  p.cfar_pfa = 1e-6;
  p.label.max_area = 0;
  // CFAR makes its own decision: the threshold does not apply and is not shown.
  EXPECT_EQ(filter_legend(p, false)[1], "CFAR 1e-06  AREA >= 6  TGT 300 M");
  p.denoise = gpu::DenoiseMode::Bilateral;
  p.bilateral_sigma_s = 2.5f;
  p.bilateral_sigma_r = 30;
  p.threshold = 70;
  EXPECT_EQ(filter_legend(p, true)[1], "BILAT 2.5/30  THR 70  AREA >= 6  TGT 300 M  ALL BLOBS");
}

TEST(TargetMarks, ABoxIsItsComponentsPixelEdgesInWorldMetres) {
  const DisplayGeometry g = geometry();
  // Pixel columns 50..51 and rows 40..49: east 200 .. 220 m, north 100 .. 0 m.
  const WorldBox b = box_of(component(1, 50, 40, 51, 49), g);
  EXPECT_DOUBLE_EQ(b.e0, 200);
  EXPECT_DOUBLE_EQ(b.n0, 100);
  EXPECT_DOUBLE_EQ(b.e1, 220);
  EXPECT_DOUBLE_EQ(b.n1, 0);
}

TEST(TargetMarks, OnlyPlotsAreBoxed) {
  gpu::FrameResult r;
  r.labelled = true;
  r.components = {component(1, 0, 0, 3, 3), component(2, 10, 10, 12, 11),
                  component(3, 50, 50, 80, 90)};
  r.count = 3;
  r.plots = {plot_of(2)};
  const auto marks = target_marks(r, geometry(), false);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].plot, &r.plots[0]);
  EXPECT_EQ(marks[0].component, &r.components[1]);
  const WorldBox want = box_of(r.components[1], geometry());
  EXPECT_DOUBLE_EQ(marks[0].box.e0, want.e0);
  EXPECT_DOUBLE_EQ(marks[0].box.n1, want.n1);
}

TEST(TargetMarks, NoPlotsMeansNoBoxesHoweverManyComponents) {
  gpu::FrameResult r;
  r.labelled = true;
  for (int i = 1; i <= 40; ++i) r.components.push_back(component(i, i, i, i + 1, i + 1));
  r.count = 40;
  EXPECT_TRUE(target_marks(r, geometry(), false).empty());
}

TEST(TargetMarks, AllComponentsPutThePlotsLastSoTheyAreDrawnOnTop) {
  gpu::FrameResult r;
  r.components = {component(1, 0, 0, 3, 3), component(2, 10, 10, 12, 11),
                  component(3, 50, 50, 80, 90)};
  r.count = 3;
  r.plots = {plot_of(3), plot_of(1)};
  const auto marks = target_marks(r, geometry(), true);
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_EQ(marks[0].plot, nullptr);
  EXPECT_EQ(marks[0].component->label, 2);
  EXPECT_EQ(marks[1].plot, &r.plots[0]);
  EXPECT_EQ(marks[1].component->label, 3);
  EXPECT_EQ(marks[2].plot, &r.plots[1]);
  EXPECT_EQ(marks[2].component->label, 1);
}

TEST(TargetMarks, APlotNamingNoComponentIsSkipped) {
  gpu::FrameResult r;
  r.components = {component(1, 0, 0, 3, 3)};
  r.count = 1;
  r.plots = {plot_of(0), plot_of(2), plot_of(-5), plot_of(1)};
  const auto marks = target_marks(r, geometry(), false);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].plot, &r.plots[3]);
  // With every component shown, the one component is still drawn once, as the plot.
  EXPECT_EQ(target_marks(r, geometry(), true).size(), 1u);
}

// The bundled capture through the engine at the console's defaults (CPU backend): each plot's
// box is the box of the echo the plot was made from, so it holds the plot's centroid.
TEST(TargetMarks, BundledCapturePlotsSitInTheirBoxes) {
  engine::EngineSettings s;
  s.processing.backend = "cpu";
  s.processing.size = 1024;
  s.source.speed = 0;
  s.source.loop = false;
  engine::Engine eng(s);
  ASSERT_TRUE(eng.open_source(std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap"))
      << eng.source_view().error;
  // Two-scan confirmation needs a previous rotation; the clutter map learns over a few (the
  // capture holds four, the last one partly).
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(eng.pump_rotation(60)) << "rotation " << i;
    ASSERT_TRUE(eng.process_and_wait()) << eng.processing_error();
  }
  const gpu::FrameResult* r = eng.result();
  ASSERT_NE(r, nullptr);
  ASSERT_FALSE(r->plots.empty()) << r->components.size() << " components, no plot";
  const DisplayGeometry& g = eng.geometry();
  const auto marks = target_marks(*r, g, false);
  ASSERT_EQ(marks.size(), r->plots.size());
  const double slack = 1.5 * g.metres_per_pixel;
  for (const TargetMark& m : marks) {
    ASSERT_NE(m.plot, nullptr);
    EXPECT_EQ(m.component->label, m.plot->label);
    const double b = m.plot->bearing_deg * kPi / 180;
    const double e = m.plot->range_m * std::sin(b), n = m.plot->range_m * std::cos(b);
    EXPECT_GE(e, m.box.e0 - slack) << "plot " << m.plot->label;
    EXPECT_LE(e, m.box.e1 + slack) << "plot " << m.plot->label;
    EXPECT_LE(n, m.box.n0 + slack) << "plot " << m.plot->label;
    EXPECT_GE(n, m.box.n1 - slack) << "plot " << m.plot->label;
  }
  EXPECT_EQ(target_marks(*r, g, true).size(), r->components.size());
}
