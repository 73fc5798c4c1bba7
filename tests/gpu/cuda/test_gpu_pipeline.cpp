// The CUDA pipeline against the CPU pipeline, stage by stage, on random and structured frames,
// centred, off-centre and zoomed, odd sizes included: identical for nearest, max-hold, CFAR and
// threshold; within one level for the filters (float sums in another order, fused multiply-adds,
// a warp FFT vs a radix-2 FFT; see docs/pipeline.md).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/backend/make_pipeline.hpp"
#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "gpu/cuda/cuda_pipeline.hpp"
#include "gpu/cuda/scan_kernels.hpp"
#include "tests/support/frames.hpp"
#include "tests/support/gpu_skip.hpp"
#include "tests/support/image_compare.hpp"

namespace sweepline::gpu {
namespace {

using test::count_diff;

// The shared max_diff, the sizes also checked as expectations of their own.
int max_diff(const Image8& a, const Image8& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  return test::max_diff(a, b);
}

struct Case {
  const char* name;
  PipelineParams params;
  PolarFrame frame;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  PipelineParams p;
  p.width = 512;
  p.height = 384;
  out.push_back({"random centred", p, testing::random_frame(1024, 512, 20000, 31)});
  out.push_back({"structured centred", p, testing::structured_frame(2048, 1024, 20000, 32)});
  p.display_range_m = 4000;
  p.origin_east_m = 2500;
  p.origin_north_m = -1500;
  out.push_back(
      {"structured zoomed off-centre", p, testing::structured_frame(4096, 1024, 20000, 33)});
  p.width = 301;  // not a multiple of 4: the scalar paths
  p.height = 203;
  p.display_range_m = 50000;
  p.origin_east_m = -20000;
  p.origin_north_m = 30000;
  out.push_back({"random odd size zoomed out", p, testing::random_frame(360, 700, 20000, 34)});
  // An odd cell count: the max-hold table's last word of the frame is partial.
  p.display_range_m = 0;
  p.origin_east_m = 0;
  p.origin_north_m = 0;
  p.width = 668;
  p.height = 501;
  out.push_back({"random odd frame", p, testing::random_frame(257, 333, 20000, 35)});
  return out;
}

TEST(GpuPipeline, ScanConversionMatchesCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  for (Case c : cases())
    for (ScanMode m : {ScanMode::Nearest, ScanMode::MaxHold, ScanMode::Bilinear}) {
      c.params.scan = m;
      c.params.denoise = DenoiseMode::None;
      gpu->process(c.frame, c.params);
      cpu->process(c.frame, c.params);
      const Image8 g = gpu->scan_image(), h = cpu->scan_image();
      EXPECT_EQ(count_diff(g, h), 0u) << c.name << " " << to_string(m);
      EXPECT_EQ(gpu->binary_image(), cpu->binary_image()) << c.name << " " << to_string(m);
    }
}

// The max-hold span table directly, one table reused across frames and rebuilt for a new
// geometry: identical to the CPU.
TEST(GpuPipeline, MaxHoldTableMatchesCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  auto cpu = make_pipeline(Backend::Cpu);
  cuda::MaxHoldTable table;
  cuda::Stream stream;
  for (Case c : cases()) {
    c.params.scan = ScanMode::MaxHold;
    c.params.denoise = DenoiseMode::None;
    cpu->process(c.frame, c.params);
    const Image8 want = cpu->scan_image();
    const ScanSetup setup = make_scan_setup(c.params, c.frame);
    cuda::DeviceBuffer<uint8_t> d_polar(c.frame.cells.size()), d_out(want.size());
    cuda::DeviceBuffer<uint8_t> d_pyr(
        std::max<size_t>(1, az_pyramid_cells(c.frame.azimuths, c.frame.range_bins)));
    ASSERT_EQ(cudaMemcpy(d_polar.get(), c.frame.cells.data(), c.frame.cells.size(),
                         cudaMemcpyHostToDevice),
              cudaSuccess);
    for (int frame = 0; frame < 2; ++frame) {
      ASSERT_EQ(cudaMemset(d_out.get(), 7, want.size()), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the stream does not wait for it
      table.scan(setup, d_polar.get(), d_pyr.get(), cuda::Out8{d_out.get(), 0}, stream.get());
      Image8 got(want.width, want.height);
      ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
      ASSERT_EQ(cudaMemcpy(got.pixels.data(), d_out.get(), got.size(), cudaMemcpyDeviceToHost),
                cudaSuccess);
      EXPECT_EQ(count_diff(got, want), 0u) << c.name << " frame " << frame;
    }
  }
}

// The filters get the same scan image on both sides (max-hold is identical), so any difference
// is the filter's own.
TEST(GpuPipeline, DenoisingWithinOneLevelAndThresholdConsistent) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  for (Case c : cases()) {
    struct Mode {
      DenoiseMode d;
      float sigma;
    };
    for (Mode m : {Mode{DenoiseMode::Gaussian, 0.5f}, Mode{DenoiseMode::Gaussian, 1.0f},
                   Mode{DenoiseMode::Gaussian, 2.0f}, Mode{DenoiseMode::Gaussian, 5.0f},
                   Mode{DenoiseMode::Bilateral, 1.0f}, Mode{DenoiseMode::Bilateral, 5.0f},
                   Mode{DenoiseMode::FftEnhance, 1.0f}}) {
      c.params.denoise = m.d;
      c.params.gaussian_sigma = m.sigma;
      c.params.bilateral_sigma_s = m.sigma == 1.0f ? 2.5f : m.sigma;
      gpu->process(c.frame, c.params);
      cpu->process(c.frame, c.params);
      ASSERT_EQ(gpu->scan_image(), cpu->scan_image());
      const Image8 gd = gpu->denoised_image(), cd = cpu->denoised_image();
      EXPECT_LE(max_diff(gd, cd), 1) << c.name << " " << to_string(m.d) << " " << m.sigma;
      EXPECT_LT(count_diff(gd, cd), gd.size() / 100) << c.name << " " << to_string(m.d);
      // Threshold: exact against the CPU threshold of the GPU's own denoised image.
      ThreadPool pool(2);
      Image8 want;
      cpu::threshold(pool, gd, c.params.threshold, want);
      EXPECT_EQ(gpu->binary_image(), want) << c.name;
    }
  }
}

// A display that is not a multiple of 16 either way: 96 x 64 windows, the last row and column
// of them cut.
TEST(GpuPipeline, FftEnhanceOnACutDisplayWithinOneLevel) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  const PolarFrame f = testing::structured_frame(2048, 1024, 20000, 35);
  PipelineParams p;
  p.width = 1536;
  p.height = 1018;  // not a multiple of 16 either
  p.denoise = DenoiseMode::FftEnhance;
  gpu->process(f, p);
  cpu->process(f, p);
  ASSERT_EQ(gpu->scan_image(), cpu->scan_image());
  const Image8 gd = gpu->denoised_image(), cd = cpu->denoised_image();
  EXPECT_LE(max_diff(gd, cd), 1);
  EXPECT_LT(count_diff(gd, cd), gd.size() / 100);
}

TEST(GpuPipeline, CfarIdenticalToCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  for (Case c : cases())
    for (auto [guard, train, pfa] :
         {std::tuple{2, 16, 1e-3}, std::tuple{0, 1, 0.3}, std::tuple{4, 40, 1e-2}}) {
      c.params.denoise = DenoiseMode::Cfar;
      c.params.cfar_guard = guard;
      c.params.cfar_train = train;
      c.params.cfar_pfa = pfa;
      gpu->process(c.frame, c.params);
      cpu->process(c.frame, c.params);
      EXPECT_EQ(count_diff(gpu->denoised_image(), cpu->denoised_image()), 0u)
          << c.name << " " << train;
      EXPECT_EQ(gpu->binary_image(), cpu->binary_image()) << c.name;
    }
}

// Every row of f changes to `fill`, but only rows first .. first + count - 1 (mod azimuths) are
// declared dirty; `truth` takes those rows alone, which is all the device may see.
void change_all_declare_some(PolarFrame& f, PolarFrame& truth, int first, int count, uint8_t fill) {
  std::fill(f.cells.begin(), f.cells.end(), fill);
  f.dirty = {first, count};
  for (int k = 0; k < count; ++k) {
    const int a = (first + k) % f.azimuths;
    std::copy(f.row(a), f.row(a) + f.range_bins, truth.row(a));
  }
}

// A 256 x 256 display of the scan alone.
PipelineParams scan_only(ScanMode mode) {
  PipelineParams p;
  p.width = p.height = 256;
  p.scan = mode;
  p.denoise = DenoiseMode::None;
  return p;
}

// Only the dirty rows travel: rows changed outside the dirty span must NOT reach the device.
TEST(GpuPipeline, UploadsOnlyDirtyRowsIncludingAWrappedSpan) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  const PipelineParams p = scan_only(ScanMode::Nearest);
  PolarFrame f = testing::random_frame(512, 256, 1000, 41);
  gpu->process(f, p);  // first frame: everything
  PolarFrame truth = f;
  change_all_declare_some(f, truth, 500, 30, 7);  // rows 500..511 and 0..17 declared
  gpu->process(f, p);
  cpu->process(truth, p);
  EXPECT_EQ(gpu->scan_image(), cpu->scan_image());
  f.dirty = {0, 0};  // nothing changed: nothing uploaded, same result
  gpu->process(f, p);
  EXPECT_EQ(gpu->scan_image(), cpu->scan_image());
  f.dirty = {0, 512};  // all of it
  gpu->process(f, p);
  cpu->process(f, p);
  EXPECT_EQ(gpu->scan_image(), cpu->scan_image());
}

// Bilinear reads the frame's CUDA array: it follows the dirty rows (a span across north), a
// frame with no dirty rows, frames scanned in another mode meanwhile, and a new frame shape.
TEST(GpuPipeline, ScanConversionBilinearFollowsDirtyRowsAndModes) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  PipelineParams p = scan_only(ScanMode::Bilinear);
  PolarFrame f = testing::random_frame(512, 256, 1000, 43);
  PolarFrame truth = f;
  auto step = [&](int first, int count, ScanMode m, uint8_t fill, const char* what) {
    change_all_declare_some(f, truth, first, count, fill);
    p.scan = m;
    gpu->process(f, p);
    cpu->process(truth, p);
    EXPECT_EQ(gpu->scan_image(), cpu->scan_image()) << what;
  };
  gpu->process(f, p);  // first frame: everything
  cpu->process(truth, p);
  EXPECT_EQ(gpu->scan_image(), cpu->scan_image()) << "first";
  step(500, 30, ScanMode::Bilinear, 7, "across north");
  step(0, 0, ScanMode::Bilinear, 9, "nothing dirty");
  step(100, 20, ScanMode::Nearest, 11, "nearest");
  step(300, 5, ScanMode::Bilinear, 13, "bilinear after nearest");
  step(0, 1, ScanMode::Bilinear, 15, "azimuth 0");
  step(511, 1, ScanMode::Bilinear, 17, "the last azimuth");
  const PolarFrame g = testing::random_frame(360, 333, 1000, 44);  // another shape
  gpu->process(g, p);
  cpu->process(g, p);
  EXPECT_EQ(gpu->scan_image(), cpu->scan_image()) << "new shape";
}

// Every kernel the pipeline runs writes the same pixels into its display texture as into its
// device image: each scan mode and denoiser (the Gaussian at both tile heights of the
// tensor-core kernel where the GPU has one; tests/gpu/cuda/test_gpu_filters.cpp covers the
// multiply-add kernel), at a width the wide surface stores take whole (300: 4-byte words; 320:
// 16-byte ones) and at one they must clip (301), plus the label colours.
TEST(GpuPipeline, WritesDisplaySurfacesInPlace) {
  SWL_SKIP_WITHOUT_CUDA();
  const PolarFrame f = testing::structured_frame(1024, 512, 5000, 42);
  struct Case {
    const char* name;
    ScanMode scan;
    DenoiseMode denoise;
    float sigma;
  };
  const Case cases[] = {
      {"maxhold gaussian 1", ScanMode::MaxHold, DenoiseMode::Gaussian, 1},
      {"nearest gaussian 0.5", ScanMode::Nearest, DenoiseMode::Gaussian, 0.5f},
      {"bilinear gaussian 5", ScanMode::Bilinear, DenoiseMode::Gaussian, 5},
      {"maxhold bilateral", ScanMode::MaxHold, DenoiseMode::Bilateral, 1},
      {"maxhold fft", ScanMode::MaxHold, DenoiseMode::FftEnhance, 1},
      {"maxhold cfar", ScanMode::MaxHold, DenoiseMode::Cfar, 1},
      {"maxhold none", ScanMode::MaxHold, DenoiseMode::None, 1},
  };
  int64_t components = 0;  // over every case: the label colours must have had labels to colour
  for (const int width : {300, 301, 320})
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.name) + " width " + std::to_string(width));
      auto base = cuda::make_cuda_pipeline();
      PipelineParams p;
      p.width = width;
      p.height = 200;
      p.label_enabled = true;
      p.scan = c.scan;
      p.denoise = c.denoise;
      p.gaussian_sigma = c.sigma;
      cudaArray_t arrays[4] = {};
      cudaSurfaceObject_t surfs[4] = {};
      for (int i = 0; i < 4; ++i) {
        const cudaChannelFormatDesc fmt =
            i < 3 ? cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned)
                  : cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        ASSERT_EQ(cudaMallocArray(&arrays[i], &fmt, p.width, p.height, cudaArraySurfaceLoadStore),
                  cudaSuccess);
        cudaResourceDesc rd{};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arrays[i];
        ASSERT_EQ(cudaCreateSurfaceObject(&surfs[i], &rd), cudaSuccess);
      }
      // The frame writes the images; the label colours come after it, through identities.
      DisplayTargets t{surfs[0], surfs[1], surfs[2], 0};
      base->process(f, p, &t);
      const FrameResult& r = base->result();
      EXPECT_TRUE(r.labelled);
      components += r.count;
      // Identities unlike the labels, and one label short so that the last label has none
      // (transparent).
      std::vector<int32_t> ids(size_t(std::max(r.count, 1)), 0);
      for (size_t l = 1; l < ids.size(); ++l) ids[l] = int32_t(l * 7 + 3);
      base->colour_labels(ids, DisplayTargets{0, 0, 0, surfs[3]});
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const Image8 want[3] = {base->scan_image(), base->denoised_image(), base->binary_image()};
      for (int i = 0; i < 3; ++i) {
        Image8 got(p.width, p.height);
        ASSERT_EQ(cudaMemcpy2DFromArray(got.pixels.data(), p.width, arrays[i], 0, 0, p.width,
                                        p.height, cudaMemcpyDeviceToHost),
                  cudaSuccess);
        EXPECT_EQ(got, want[i]) << "surface " << i;
      }
      std::vector<uint32_t> colours(size_t(p.width) * p.height);
      ASSERT_EQ(cudaMemcpy2DFromArray(colours.data(), p.width * 4, arrays[3], 0, 0, p.width * 4,
                                      p.height, cudaMemcpyDeviceToHost),
                cudaSuccess);
      const ImageI32 labels = base->label_image();
      ASSERT_EQ(labels.size(), colours.size());
      for (size_t i = 0; i < colours.size(); ++i)
        ASSERT_EQ(colours[i], identity_colour(ids, labels.pixels[i])) << i;
      for (int i = 0; i < 4; ++i) {
        cudaDestroySurfaceObject(surfs[i]);
        cudaFreeArray(arrays[i]);
      }
    }
  EXPECT_GT(components, 100);
}

TEST(GpuPipeline, LabellingMatchesCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  Case c = cases()[1];
  c.params.label_enabled = true;
  c.params.threshold = 100;
  gpu->process(c.frame, c.params);
  cpu->process(c.frame, c.params);
  ASSERT_EQ(gpu->binary_image(), cpu->binary_image());
  EXPECT_EQ(gpu->result().count, cpu->result().count);
  EXPECT_EQ(gpu->label_image(), cpu->label_image());
}

TEST(GpuPipeline, FullSizeDefaultFrameMatchesCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  auto gpu = make_pipeline(Backend::Cuda);
  auto cpu = make_pipeline(Backend::Cpu);
  const PolarFrame f = testing::structured_frame(4096, 4096, 60000, 43);
  PipelineParams p;  // 4096 x 4096, max-hold, Gaussian sigma 1
  gpu->process(f, p);
  cpu->process(f, p);
  EXPECT_EQ(count_diff(gpu->scan_image(), cpu->scan_image()), 0u);
  EXPECT_LE(max_diff(gpu->denoised_image(), cpu->denoised_image()), 1);
  const FrameResult& r = gpu->result();
  for (const char* s : {"upload", "scan", "denoise", "threshold", "upload:copy"})
    EXPECT_TRUE(std::any_of(r.times.begin(), r.times.end(), [&](const StageTime& t) {
      return t.stage == s;
    })) << s;
  // The copy is a part of the upload stage (which also updates the max-hold texture).
  auto ms = [&](const char* s) {
    for (const StageTime& t : r.times)
      if (t.stage == s) return t.ms;
    return -1.0;
  };
  EXPECT_GT(ms("upload:copy"), 0.0);
  EXPECT_LE(ms("upload:copy"), ms("upload") + 1e-3);
}

}  // namespace
}  // namespace sweepline::gpu
