// The CPU pipeline end to end: every mode runs, stages are timed, the stage outputs agree with
// the stage functions, bad parameters are refused with a reason, labelling plugs in.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/common/check.hpp"
#include "gpu/backend/make_pipeline.hpp"
#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "tests/support/frames.hpp"

namespace sweepline::gpu {
namespace {

PipelineParams small_params() {
  PipelineParams p;
  p.width = 192;
  p.height = 160;
  return p;
}

bool has_stage(const FrameResult& r, const std::string& name) {
  return std::any_of(r.times.begin(), r.times.end(),
                     [&](const StageTime& t) { return t.stage == name; });
}

TEST(PipelineFrame, EveryModeRunsAndIsTimed) {
  auto pipe = make_pipeline(Backend::Cpu, 2);
  const PolarFrame f = testing::structured_frame(720, 400, 30000, 21);
  for (ScanMode s : {ScanMode::Nearest, ScanMode::Bilinear, ScanMode::MaxHold})
    for (DenoiseMode d : {DenoiseMode::None, DenoiseMode::Gaussian, DenoiseMode::Bilateral,
                          DenoiseMode::FftEnhance, DenoiseMode::Cfar}) {
      PipelineParams p = small_params();
      p.scan = s;
      p.denoise = d;
      pipe->process(f, p);
      const FrameResult& r = pipe->result();
      EXPECT_TRUE(has_stage(r, "scan") && has_stage(r, "denoise") && has_stage(r, "threshold"));
      for (const StageTime& t : r.times) EXPECT_GE(t.ms, 0.0);
      const Image8 scan = pipe->scan_image(), den = pipe->denoised_image(),
                   bin = pipe->binary_image();
      ASSERT_EQ(scan.width, p.width);
      ASSERT_EQ(den.height, p.height);
      const uint8_t t = d == DenoiseMode::Cfar ? 127 : p.threshold;
      for (size_t i = 0; i < bin.size(); ++i) ASSERT_EQ(bin.pixels[i], den.pixels[i] > t ? 255 : 0);
      if (d == DenoiseMode::None) {
        EXPECT_EQ(den, scan);
      }
      if (d == DenoiseMode::Cfar && s != ScanMode::Bilinear) {
        for (uint8_t v : den.pixels) ASSERT_TRUE(v == 0 || v == 255);
      }
    }
}

TEST(PipelineFrame, StagesChainAsTheStageFunctions) {
  auto pipe = make_pipeline(Backend::Cpu, 2);
  const PolarFrame f = testing::random_frame(512, 256, 10000, 22);
  PipelineParams p = small_params();
  p.gaussian_sigma = 2.0f;
  p.origin_east_m = 1234;
  p.display_range_m = 6000;
  pipe->process(f, p);
  ThreadPool pool(1);
  Image8 scan, den;
  std::vector<uint16_t> scratch;
  cpu::scan_convert(pool, make_scan_setup(p, f), f.cells.data(), ScanMode::MaxHold, scan);
  cpu::gaussian(pool, scan, 2.0f, den, scratch);
  EXPECT_EQ(pipe->scan_image(), scan);
  EXPECT_EQ(pipe->denoised_image(), den);
}

TEST(PipelineFrame, BadParametersAreRefusedWithAReason) {
  auto pipe = make_pipeline(Backend::Cpu, 1);
  const PolarFrame f = testing::random_frame(64, 64, 1000, 23);
  auto refuses = [&](auto mutate, const char* word) {
    PipelineParams p = small_params();
    PolarFrame g = f;
    mutate(p, g);
    try {
      pipe->process(g, p);
      ADD_FAILURE() << "accepted: " << word;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  refuses([](PipelineParams& p, PolarFrame&) { p.width = 0; }, "display size");
  refuses([](PipelineParams& p, PolarFrame&) { p.gaussian_sigma = 0.1f; }, "gaussian_sigma");
  refuses([](PipelineParams& p, PolarFrame&) { p.bilateral_sigma_s = 9; }, "bilateral_sigma_s");
  refuses([](PipelineParams& p, PolarFrame&) { p.cfar_pfa = 0; }, "cfar_pfa");
  refuses([](PipelineParams& p, PolarFrame&) { p.cfar_train = 0; }, "CFAR");
  refuses([](PipelineParams&, PolarFrame& g) { g.cells.resize(10); }, "cells");
  refuses([](PipelineParams&, PolarFrame& g) { g.range_m = 0; }, "range_m");
  refuses([](PipelineParams& p, PolarFrame&) { p.display_range_m = -1; }, "display_range_m");
  // The pipeline is still usable afterwards.
  pipe->process(f, small_params());
  EXPECT_EQ(pipe->result().width, 192);
}

TEST(PipelineFrame, NamesRoundTrip) {
  for (ScanMode m : {ScanMode::Nearest, ScanMode::Bilinear, ScanMode::MaxHold})
    EXPECT_EQ(scan_mode_from_string(to_string(m)), m);
  for (DenoiseMode m : {DenoiseMode::None, DenoiseMode::Gaussian, DenoiseMode::Bilateral,
                        DenoiseMode::FftEnhance, DenoiseMode::Cfar})
    EXPECT_EQ(denoise_mode_from_string(to_string(m)), m);
  for (Backend b : {Backend::Cpu, Backend::Cuda}) EXPECT_EQ(backend_from_string(to_string(b)), b);
  EXPECT_EQ(scan_mode_from_string("max-hold"), ScanMode::MaxHold);
  // A wrong name is refused with every name the option takes.
  auto refusal = [](auto parse, const char* name) {
    try {
      parse(name);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(scan_mode_from_string, "cubic")
                .find("unknown scan mode 'cubic' (expected nearest, bilinear or maxhold)"),
            std::string::npos);
  EXPECT_NE(refusal(denoise_mode_from_string, "median")
                .find("(expected none, gaussian, bilateral, fft or cfar)"),
            std::string::npos);
  EXPECT_NE(refusal(backend_from_string, "opencl").find("(expected cpu or cuda)"),
            std::string::npos);
}

TEST(PipelineFrame, CudaBackendFailsClearlyOrWorks) {
  try {
    auto p = make_pipeline(Backend::Cuda);
    EXPECT_EQ(p->backend(), Backend::Cuda);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

TEST(PipelineFrame, LabelsTheBinaryImage) {
  PolarFrame f(360, 200, 1000);
  // Two separate bright patches.
  for (int a = 10; a < 20; ++a)
    for (int r = 100; r < 120; ++r) f.row(a)[r] = 255;
  for (int a = 200; a < 215; ++a)
    for (int r = 50; r < 70; ++r) f.row(a)[r] = 255;
  auto pipe = make_pipeline(Backend::Cpu, 2);
  PipelineParams p = small_params();
  p.label_enabled = true;
  p.denoise = DenoiseMode::None;
  pipe->process(f, p);
  const FrameResult& r = pipe->result();
  ASSERT_TRUE(r.labelled);
  EXPECT_EQ(r.count, 2);
  ASSERT_EQ(r.components.size(), 2u);
  EXPECT_TRUE(has_stage(r, "label"));
  const ImageI32 labels = pipe->label_image();
  ASSERT_EQ(labels.width, p.width);
  // The first patch is at bearing ~15 degrees, range ~110/200 of 1000 m.
  bool found = false;
  for (const auto& c : r.components)
    found |= std::abs(c.bearing_deg - 15.0) < 3.0 && std::abs(c.range_m - 550.0) < 30.0;
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace sweepline::gpu
