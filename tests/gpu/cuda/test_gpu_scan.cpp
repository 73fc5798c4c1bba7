// The CUDA scan-conversion kernels against the CPU's (gpu/cpu/cpu_stages.hpp), launched directly:
// nearest and bilinear (from the frame and, bilinear, through the texture; the mirror kernel on
// displays of whole 8-pixel column groups and even height, the tile kernel on the others),
// max-hold computed per pixel, through the per-geometry table and its arithmetic route, on
// geometries chosen to hit every path of the kernels (zoomed in and out, off-centre with the radar
// outside the display or on its corner, bins not a multiple of 16, few azimuths, odd display sizes)
// and on frames that expose a single wrong cell (sparse bright cells, a per-cell ramp). Every path
// must be identical to the CPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/scan_kernels.hpp"
#include "tests/support/frames.hpp"
#include "tests/support/gpu_skip.hpp"
#include "tests/support/image_compare.hpp"

namespace sweepline::gpu {
namespace {

struct Geometry {
  std::string name;
  int az, bins, width, height;
  double range_m, display_range_m, east_m, north_m;
};

std::vector<Geometry> geometries() {
  return {
      // The default display's scale (2 bins a pixel) at a quarter of the size.
      {"centred 2 bins/px", 2048, 1024, 1024, 1024, 20000, 0, 0, 0},
      {"centred 6 bins/px, wide", 1024, 2048, 1100, 700, 20000, 0, 0, 0},
      {"zoomed in 0.2 bins/px off-centre", 4096, 1024, 640, 480, 20000, 1000, 3000, -4000},
      {"zoomed out 27 bins/px", 512, 4096, 600, 600, 20000, 40000, 0, 0},
      {"radar outside the display", 2048, 2048, 512, 512, 30000, 5000, -12000, 9000},
      {"radar on a corner", 1024, 1024, 513, 517, 20000, 10000, 10000, -10000},
      {"bins not a multiple of 16", 1000, 1000, 509, 391, 20000, 0, -2000, 1000},
      {"360 azimuths, 333 bins", 360, 333, 301, 203, 20000, 0, 0, 0},
      {"12 azimuths (no pyramid)", 12, 200, 130, 97, 20000, 0, 0, 0},
      {"radar near the north edge", 2048, 1024, 768, 512, 20000, 8000, 0, -7990},
      // Centred at 2 bins a pixel (a symmetric grid) with a partial block column at the centre.
      {"centred 2 bins/px, 1064 wide", 1024, 1024, 1064, 1024, 20000, 0, 0, 0},
      // Centred, W % 8 == 0, at a scale whose pixel grid is not symmetric about the radar.
      {"centred 2.95 bins/px (grid not symmetric)", 1024, 2048, 1200, 904, 20000, 13000, 0, 0},
  };
}

PolarFrame sparse_frame(int az, int bins, double range_m, uint32_t seed) {
  PolarFrame f(az, bins, range_m);
  std::mt19937 rng(seed);
  for (auto& c : f.cells) c = (rng() % 97 == 0) ? uint8_t(128 + rng() % 128) : uint8_t(0);
  return f;
}

PolarFrame ramp_frame(int az, int bins, double range_m) {
  PolarFrame f(az, bins, range_m);
  for (int a = 0; a < az; ++a)
    for (int r = 0; r < bins; ++r) f.row(a)[r] = uint8_t((a * 7 + r * 13) & 0xFF);
  return f;
}

ScanSetup setup_for(const Geometry& g, const PolarFrame& f) {
  PipelineParams p;
  p.width = g.width;
  p.height = g.height;
  p.display_range_m = g.display_range_m;
  p.origin_east_m = g.east_m;
  p.origin_north_m = g.north_m;
  return make_scan_setup(p, f);
}

using test::count_diff;

// Runs the kernels on one frame and geometry.
class ScanRunner {
 public:
  ScanRunner(const PolarFrame& f, const ScanSetup& s)
      : s_(s),
        d_polar_(f.cells.size()),
        d_pyr_(std::max<size_t>(1, az_pyramid_cells(f.azimuths, f.range_bins))),
        d_out_(size_t(s.width) * size_t(s.height)) {
    SWL_CUDA_CHECK(
        cudaMemcpy(d_polar_.get(), f.cells.data(), f.cells.size(), cudaMemcpyHostToDevice));
    SWL_CUDA_CHECK(cudaDeviceSynchronize());  // before kernels on a non-blocking stream
  }
  void upload(const PolarFrame& f) {
    SWL_CUDA_CHECK(
        cudaMemcpy(d_polar_.get(), f.cells.data(), f.cells.size(), cudaMemcpyHostToDevice));
    SWL_CUDA_CHECK(cudaDeviceSynchronize());  // before kernels on a non-blocking stream
  }
  Image8 launch(ScanMode m, const cuda::PolarTexture* tex = nullptr) {
    poison();
    cuda::launch_scan(s_, d_polar_.get(), m, cuda::Out8{d_out_.get(), 0}, d_pyr_.get(),
                      stream_.get(), tex);
    return fetch();
  }
  // Bilinear through the frame's CUDA array (all rows copied into it first).
  Image8 launch_texture() {
    tex_.update(d_polar_.get(), s_.azimuths, s_.bins, 0, s_.azimuths, stream_.get());
    return launch_texture_as_is();
  }
  Image8 launch_texture_as_is() { return launch(ScanMode::Bilinear, &tex_); }
  cuda::PolarTexture& texture() { return tex_; }
  const uint8_t* d_polar() const { return d_polar_.get(); }
  Image8 table(cuda::MaxHoldTable& t) {
    poison();
    t.scan(s_, d_polar_.get(), d_pyr_.get(), cuda::Out8{d_out_.get(), 0}, stream_.get());
    return fetch();
  }
  // Max-hold with the frame's range-max texture (the arithmetic route where the table has it;
  // all rows copied into the texture first).
  Image8 table_arith(cuda::MaxHoldTable& t) {
    range_tex_.update(d_polar_.get(), s_.azimuths, s_.bins, 0, s_.azimuths, stream_.get());
    return table_arith_as_is(t);
  }
  Image8 table_arith_as_is(cuda::MaxHoldTable& t) {
    poison();
    t.scan(s_, d_polar_.get(), d_pyr_.get(), cuda::Out8{d_out_.get(), 0}, stream_.get(),
           &range_tex_);
    return fetch();
  }
  cuda::PolarTexture& range_texture() { return range_tex_; }
  cudaStream_t stream() const { return stream_.get(); }

 private:
  void poison() {
    SWL_CUDA_CHECK(cudaMemsetAsync(d_out_.get(), 0xA5, d_out_.size(), stream_.get()));
  }
  Image8 fetch() {
    Image8 img(s_.width, s_.height);
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    SWL_CUDA_CHECK(cudaMemcpy(img.pixels.data(), d_out_.get(), img.size(), cudaMemcpyDeviceToHost));
    return img;
  }
  ScanSetup s_;
  cuda::Stream stream_;
  cuda::DeviceBuffer<uint8_t> d_polar_, d_pyr_, d_out_;
  cuda::PolarTexture tex_;
  cuda::PolarTexture range_tex_{true};
};

// Whether east(W - 1 - x) == -east(x) and north(H - 1 - y) == -north(y) for every column and row
// (the kernels' col_polar / row_polar arithmetic): where it holds, the mirrored kernel shares
// each pixel's range and folded azimuth with its three mirror images.
bool grid_symmetric(const ScanSetup& s) {
  for (int x = 0; x < s.width; ++x)
    if (std::fma(float(s.width - 1 - x), s.step, s.east0) != -std::fma(float(x), s.step, s.east0))
      return false;
  for (int y = 0; y < s.height; ++y)
    if (std::fma(-float(s.height - 1 - y), s.step, s.north0) !=
        -std::fma(-float(y), s.step, s.north0))
      return false;
  return true;
}

// The geometries give the mirrored kernel both kinds of grid (no GPU needed).
TEST(GpuScan, GeometriesCoverSymmetricAndAsymmetricMirrorGrids) {
  int symmetric = 0, asymmetric = 0;
  for (const Geometry& g : geometries()) {
    if (g.width % 8 != 0 || g.height % 2 != 0) continue;  // the tile-a-block kernel
    const ScanSetup s = setup_for(g, PolarFrame(g.az, g.bins, g.range_m));
    (grid_symmetric(s) ? symmetric : asymmetric) += 1;
    if (g.name.rfind("centred 2 bins/px", 0) == 0) {
      EXPECT_TRUE(grid_symmetric(s)) << g.name;
    }
    if (g.name.find("not symmetric") != std::string::npos) {
      EXPECT_FALSE(grid_symmetric(s)) << g.name;
    }
  }
  EXPECT_GE(symmetric, 2);
  EXPECT_GE(asymmetric, 3);
}

TEST(GpuScan, EveryPathMatchesCpuAcrossGeometriesAndFrames) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  long long table_blocks = 0, per_pixel_blocks = 0, arith_blocks = 0, arith_per_pixel = 0;
  for (const Geometry& g : geometries()) {
    const PolarFrame frames[3] = {testing::random_frame(g.az, g.bins, g.range_m, 51),
                                  sparse_frame(g.az, g.bins, g.range_m, 52),
                                  ramp_frame(g.az, g.bins, g.range_m)};
    for (int fi = 0; fi < 3; ++fi) {
      const PolarFrame& f = frames[fi];
      const ScanSetup s = setup_for(g, f);
      const std::string what = g.name + " frame " + std::to_string(fi);
      ScanRunner gpu(f, s);
      const std::string kernel = s.width % 8 == 0 && s.height % 2 == 0 ? " mirrored" : " tiles";
      Image8 want;
      cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Nearest, want);
      EXPECT_EQ(count_diff(gpu.launch(ScanMode::Nearest), want), 0u)
          << what << " nearest" << kernel;
      cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Bilinear, want);
      EXPECT_EQ(count_diff(gpu.launch(ScanMode::Bilinear), want), 0u)
          << what << " bilinear" << kernel;
      EXPECT_EQ(count_diff(gpu.launch_texture(), want), 0u) << what << " texture" << kernel;
      cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
      EXPECT_EQ(count_diff(gpu.launch(ScanMode::MaxHold), want), 0u) << what << " direct";
      // The span table (no texture given) and the arithmetic route (with it), each twice: the
      // same table serves the next frame.
      cuda::MaxHoldTable table;
      EXPECT_EQ(count_diff(gpu.table(table), want), 0u) << what << " table";
      EXPECT_EQ(count_diff(gpu.table(table), want), 0u) << what << " table again";
      EXPECT_EQ(count_diff(gpu.table_arith(table), want), 0u) << what << " arith";
      EXPECT_EQ(count_diff(gpu.table_arith_as_is(table), want), 0u) << what << " arith again";
      const auto c = table.block_counts(gpu.stream());
      table_blocks += c.table;
      per_pixel_blocks += c.per_pixel;
      arith_blocks += c.arith;
      arith_per_pixel += c.arith_per_pixel;
    }
  }
  // The geometries above must exercise the table blocks, the per-pixel blocks and both kinds
  // of the arithmetic route's blocks.
  EXPECT_GT(table_blocks, 0);
  EXPECT_GT(per_pixel_blocks, 0);
  EXPECT_GT(arith_blocks, 0);
  EXPECT_GT(arith_per_pixel, 0);
}

// A display one tile wide whose near box (12 azimuths: every pixel may span more than 16) is the
// whole display: its 32 x 300000 pixels make 75000 near blocks, more grid rows than the launch
// allows (65535) beside the route's 9375, so the route's grid is widened; the image must not
// change.
TEST(GpuScan, NarrowDisplayWithMoreNearBlocksThanGridRows) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  const Geometry g{"12 azimuths, 32 x 300000", 12, 200, 32, 300000, 20000, 0, 0, 0};
  static_assert(32 * 300000 / (8 * cuda::kMaxHoldNearPixelsPerWarp) > 65535 - 300000 / 32,
                "the near blocks must not fit the grid's rows beside the route's");
  const PolarFrame f = testing::random_frame(g.az, g.bins, g.range_m, 17);
  const ScanSetup s = setup_for(g, f);
  ScanRunner gpu(f, s);
  Image8 want;
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
  cuda::MaxHoldTable table;
  EXPECT_EQ(count_diff(gpu.table_arith(table), want), 0u) << "arithmetic route";
  EXPECT_GT(table.block_counts(gpu.stream()).arith, 0);
  EXPECT_EQ(count_diff(gpu.table(table), want), 0u) << "span table";
}

// The bilinear scan's CUDA array follows the frame row span by row span: spans across north
// (both halo rows), ending on the last azimuth, starting at 0, a single row, a new shape.
TEST(GpuScan, TextureFollowsDirtyRowSpans) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  const Geometry g = geometries()[0];
  PolarFrame f = testing::random_frame(g.az, g.bins, g.range_m, 91);
  const ScanSetup s = setup_for(g, f);
  ScanRunner gpu(f, s);
  Image8 want;
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Bilinear, want);
  EXPECT_EQ(count_diff(gpu.launch_texture(), want), 0u) << "full";
  cuda::MaxHoldTable table;
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
  EXPECT_EQ(count_diff(gpu.table_arith(table), want), 0u) << "max-hold full";
  EXPECT_GT(table.block_counts(gpu.stream()).arith, 0);
  const int spans[][2] = {{g.az - 5, 9}, {g.az - 7, 7}, {0, 3}, {1000, 1}, {g.az - 1, 1}, {0, 1}};
  uint32_t seed = 92;
  for (const auto& sp : spans) {
    const PolarFrame n = testing::random_frame(g.az, g.bins, g.range_m, seed++);
    for (int k = 0; k < sp[1]; ++k) {
      const int a = (sp[0] + k) % g.az;
      std::copy(n.row(a), n.row(a) + g.bins, f.row(a));
    }
    gpu.upload(f);
    gpu.texture().update(gpu.d_polar(), g.az, g.bins, sp[0], sp[1], gpu.stream());
    cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Bilinear, want);
    EXPECT_EQ(count_diff(gpu.launch_texture_as_is(), want), 0u)
        << "span " << sp[0] << " + " << sp[1];
    // The range-max texture of max-hold's arithmetic route the same way.
    gpu.range_texture().update(gpu.d_polar(), g.az, g.bins, sp[0], sp[1], gpu.stream());
    cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
    EXPECT_EQ(count_diff(gpu.table_arith_as_is(table), want), 0u)
        << "max-hold span " << sp[0] << " + " << sp[1];
  }
  // Another shape: the array is made again and filled whatever span is given.
  const Geometry h = geometries()[7];
  const PolarFrame f2 = testing::random_frame(h.az, h.bins, h.range_m, 99);
  const ScanSetup s2 = setup_for(h, f2);
  ScanRunner gpu2(f2, s2);
  gpu2.texture().update(gpu2.d_polar(), h.az, h.bins, 5, 1, gpu2.stream());
  cpu::scan_convert(pool, s2, f2.cells.data(), ScanMode::Bilinear, want);
  EXPECT_EQ(count_diff(gpu2.launch_texture_as_is(), want), 0u) << h.name;
}

// One table object across frames and geometries: reused while the geometry holds (a new frame
// is gathered with the old table), rebuilt when zoom, pan, display size or frame shape change.
TEST(GpuScan, TableFollowsGeometryAndFrameChanges) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  cuda::MaxHoldTable table;
  const Geometry g = geometries()[0];
  for (int step = 0; step < 6; ++step) {
    Geometry h = g;
    h.display_range_m = step % 3 == 0 ? 0 : 5000.0 * step;
    h.east_m = step == 2 ? 3000 : 0;
    h.width = step == 4 ? 700 : g.width;
    if (step == 5) h.bins = 512;
    for (uint32_t seed : {61u, 62u}) {
      const PolarFrame f = testing::structured_frame(h.az, h.bins, h.range_m, seed + step);
      const ScanSetup s = setup_for(h, f);
      ScanRunner gpu(f, s);
      Image8 want;
      cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
      EXPECT_EQ(count_diff(gpu.table(table), want), 0u) << "step " << step << " seed " << seed;
    }
  }
}

// The full-size default geometry (4096 azimuths x 4096 bins onto 4096 x 4096): nearly every
// tile that is not wholly past the range goes through the table and through the arithmetic
// route, and every mode matches.
TEST(GpuScan, FullSizeDefaultGeometryUsesTheTableAndMatchesCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  const PolarFrame f = testing::structured_frame(4096, 4096, 60000, 71);
  const ScanSetup s = make_scan_setup(PipelineParams{}, f);
  ScanRunner gpu(f, s);
  cuda::MaxHoldTable table;
  Image8 want;
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, want);
  EXPECT_EQ(count_diff(gpu.table(table), want), 0u) << "span table";
  const auto c = table.block_counts(gpu.stream());
  EXPECT_EQ(c.zero + c.table + c.per_pixel, 128 * 128);
  EXPECT_GT(c.table, 20 * c.per_pixel) << c.per_pixel << " per-pixel blocks";
  EXPECT_GT(c.zero, 0);
  // The arithmetic route (the pipeline's) takes nearly every tile in range.
  EXPECT_EQ(count_diff(gpu.table_arith(table), want), 0u) << "arithmetic route";
  const auto a = table.block_counts(gpu.stream());
  EXPECT_EQ(a.arith + a.arith_per_pixel, 128 * 128);  // past-range tiles go the route's way
  EXPECT_GT(a.arith, 20 * a.arith_per_pixel) << a.arith_per_pixel << " per-pixel blocks";
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Nearest, want);
  EXPECT_EQ(count_diff(gpu.launch(ScanMode::Nearest), want), 0u);
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Bilinear, want);
  EXPECT_EQ(count_diff(gpu.launch(ScanMode::Bilinear), want), 0u) << "bilinear";
  EXPECT_EQ(count_diff(gpu.launch_texture(), want), 0u) << "bilinear through the texture";
}

// Every mode and path also writes the display surface, the same pixels as the device image:
// odd sizes (the scalar store paths, the tile kernels) and a display of whole 8-pixel groups
// (the mirror kernels, max-hold's arithmetic route).
TEST(GpuScan, SurfaceOutputEqualsImage) {
  SWL_SKIP_WITHOUT_CUDA();
  for (const int gi : {6, 0}) {
    const Geometry g = geometries()[size_t(gi)];
    const PolarFrame f = testing::random_frame(g.az, g.bins, g.range_m, 81);
    const ScanSetup s = setup_for(g, f);
    cuda::Stream stream;
    cuda::DeviceBuffer<uint8_t> d_polar(f.cells.size()), d_out(size_t(s.width) * s.height);
    cuda::DeviceBuffer<uint8_t> d_pyr(az_pyramid_cells(f.azimuths, f.range_bins));
    ASSERT_EQ(cudaMemcpy(d_polar.get(), f.cells.data(), f.cells.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const cudaChannelFormatDesc fmt =
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t array = nullptr;
    ASSERT_EQ(cudaMallocArray(&array, &fmt, s.width, s.height, cudaArraySurfaceLoadStore),
              cudaSuccess);
    cudaResourceDesc rd{};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = array;
    cudaSurfaceObject_t surf = 0;
    ASSERT_EQ(cudaCreateSurfaceObject(&surf, &rd), cudaSuccess);
    cuda::MaxHoldTable table;
    cuda::PolarTexture tex, range_tex(true);
    tex.update(d_polar.get(), g.az, g.bins, 0, g.az, stream.get());
    range_tex.update(d_polar.get(), g.az, g.bins, 0, g.az, stream.get());
    for (int k = 0; k < 6; ++k) {
      const cuda::Out8 out{d_out.get(), surf};
      ASSERT_EQ(cudaMemsetAsync(d_out.get(), 0xA5, d_out.size(), stream.get()), cudaSuccess);
      if (k < 3)  // each mode from the frame
        cuda::launch_scan(s, d_polar.get(), ScanMode(k), out, d_pyr.get(), stream.get());
      else if (k == 3)  // bilinear through the texture
        cuda::launch_scan(s, d_polar.get(), ScanMode::Bilinear, out, d_pyr.get(), stream.get(),
                          &tex);
      else  // the span table, then the arithmetic route
        table.scan(s, d_polar.get(), d_pyr.get(), out, stream.get(), k == 5 ? &range_tex : nullptr);
      ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
      Image8 img(s.width, s.height), via_surface(s.width, s.height);
      ASSERT_EQ(cudaMemcpy(img.pixels.data(), d_out.get(), img.size(), cudaMemcpyDeviceToHost),
                cudaSuccess);
      ASSERT_EQ(cudaMemcpy2DFromArray(via_surface.pixels.data(), s.width, array, 0, 0, s.width,
                                      s.height, cudaMemcpyDeviceToHost),
                cudaSuccess);
      EXPECT_EQ(img, via_surface) << g.name << " path " << k;
    }
    if (gi == 0) {
      EXPECT_GT(table.block_counts(stream.get()).arith, 0) << g.name;
    }
    cudaDestroySurfaceObject(surf);
    cudaFreeArray(array);
  }
}

}  // namespace
}  // namespace sweepline::gpu
