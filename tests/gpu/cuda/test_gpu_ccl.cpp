// CUDA labelling against the BFS oracle: the product's `fast` and the papers' algorithms
// (gpu/reference, chosen through LabelParams::algorithm), both connectivities, random and
// adversarial images. Tests named GpuCclSmall* use small images only (for compute-sanitizer).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "app/common/check.hpp"
#include "tests/support/ccl_cases.hpp"
#include "tests/support/gpu_skip.hpp"
#ifdef SWEEPLINE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/cuda/ccl_cuda.hpp"
#include "gpu/reference/ccl_reference.hpp"
#endif

using namespace sweepline;
using sweepline::test::expect_equal_to_oracle;
using sweepline::test::oracle_label;

#ifdef SWEEPLINE_HAVE_CUDA
namespace {

const ccl::Algorithm kAlgorithms[] = {ccl::Algorithm::Fast, ccl::Algorithm::Kang,
                                      ccl::Algorithm::Propagate};

std::string tag(const std::string& name, ccl::Algorithm a, int conn) {
  return name + " " + ccl::to_string(a) + " conn " + std::to_string(conn);
}

// Labels on the GPU with the algorithm params.algorithm names (the reference library's factory:
// the product's CclLabeller for `fast`).
ccl::LabelResult label_gpu(const Image8& img, const ccl::LabelParams& p,
                           const Image8* intensity = nullptr) {
  return gpu::reference::label_cuda(img, p, intensity);
}

void check_cases(bool large, ccl::LabelParams base, bool with_intensity) {
  test::for_each_standard_case(large, base, with_intensity, 77,
                               [](const test::Case& c, ccl::LabelParams p, const Image8* ip) {
                                 auto want = oracle_label(c.image, p, ip);
                                 for (auto a : kAlgorithms) {
                                   p.algorithm = a;
                                   expect_equal_to_oracle(label_gpu(c.image, p, ip), want,
                                                          tag(c.name, a, p.connectivity));
                                   if (testing::Test::HasFatalFailure()) return;
                                 }
                               });
}

// `fast` on each named image, 4 and 8, with and without intensity weighting, against the oracle.
void expect_fast_equal_to_oracle(const std::vector<std::pair<std::string, Image8>>& imgs,
                                 uint64_t intensity_seed) {
  for (const auto& [name, img] : imgs)
    for (int conn : {4, 8})
      for (bool weighted : {false, true}) {
        ccl::LabelParams p;
        p.connectivity = conn;
        p.algorithm = ccl::Algorithm::Fast;
        Image8 in = test::random_intensity(img.width, img.height, intensity_seed);
        const Image8* ip = weighted ? &in : nullptr;
        expect_equal_to_oracle(ccl::label_cuda(img, p, ip), oracle_label(img, p, ip),
                               tag(name + (weighted ? " weighted" : ""), p.algorithm, conn));
      }
}

// A device buffer and a stream, released when the test leaves their scope, an ASSERT's early
// return included. Declared before a labeller, so that they go after it.
class DeviceBytes {
 public:
  explicit DeviceBytes(size_t n) {
    if (cudaMalloc(reinterpret_cast<void**>(&p_), n) != cudaSuccess) p_ = nullptr;
  }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  ~DeviceBytes() { cudaFree(p_); }
  operator uint8_t*() const { return p_; }

 private:
  uint8_t* p_ = nullptr;
};

class TestStream {
 public:
  TestStream() {
    if (cudaStreamCreate(&s_) != cudaSuccess) s_ = nullptr;
  }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;
  ~TestStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  operator cudaStream_t() const { return s_; }
  bool ok() const { return s_ != nullptr; }

 private:
  cudaStream_t s_ = nullptr;
};

// A frame's image and intensity image on the device (`bytes` each) and a stream, for the tests
// that drive a labeller directly.
class DeviceFrame {
 public:
  explicit DeviceFrame(size_t bytes) : img_(bytes), in_(bytes) {}
  bool ok() const { return img_ && in_ && stream_.ok(); }
  // Copies `img` (and `intensity` when given) to the device.
  void upload(const Image8& img, const Image8* intensity = nullptr) const {
    cudaMemcpy(img_, img.pixels.data(), img.size(), cudaMemcpyHostToDevice);
    if (intensity)
      cudaMemcpy(in_, intensity->pixels.data(), intensity->size(), cudaMemcpyHostToDevice);
  }
  uint8_t* image() const { return img_; }
  uint8_t* intensity() const { return in_; }
  cudaStream_t stream() const { return stream_; }

 private:
  DeviceBytes img_, in_;
  TestStream stream_;
};

// Uploads img, labels it (weighted by the frame's intensity image when `weighted`) and fetches
// the result (with the label image when with_labels): one frame of the tests that drive a
// labeller across frames.
ccl::LabelResult label_frame(gpu::cuda::CudaLabeller& lab, const DeviceFrame& f, const Image8& img,
                             const ccl::LabelParams& p, bool with_labels, bool weighted = false) {
  f.upload(img);
  lab.label(f.image(), weighted ? f.intensity() : nullptr, img.width, img.height, p, f.stream());
  return lab.fetch(with_labels);
}

// Device memory in use, to check the scratch budget independently of scratch_bytes().
size_t used_device_bytes() {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  return total_b - free_b;
}

}  // namespace
#endif

TEST(GpuCclSmall, EqualsOracle) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  check_cases(false, {}, false);
#endif
}

// `fast` labels 32 x 256 tiles first and unites across tile borders afterwards: diagonal lines
// (joined only through 8-connected corner contacts), runs along tile rows and columns, and noise
// on images that cut tiles at odd places.
TEST(GpuCclSmall, FastAcrossTileBorders) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::vector<std::pair<std::string, Image8>> imgs;
  for (int period : {5, 7, 33}) {
    Image8 d(771, 97);
    for (int y = 0; y < d.height; ++y)
      for (int x = 0; x < d.width; ++x)
        if ((x + y) % period == 0 || (x - y + 4 * d.width) % (period + 4) == 0) d.at(x, y) = 255;
    imgs.push_back({"diagonals" + std::to_string(period), std::move(d)});
  }
  Image8 g(777, 101);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (y % 32 == 31 || y % 32 == 0 || x % 256 == 255 || x % 256 == 0 || x % 256 == 1)
        g.at(x, y) = 9;
  imgs.push_back({"tile_grid", std::move(g)});
  for (double d : {0.3, 0.45, 0.55, 0.6, 0.7, 0.9})
    imgs.push_back({"random" + std::to_string(int(d * 100)) + "_515x99",
                    sim::make_test_image("random:" + std::to_string(d), 515, 99, 21)});
  for (const auto& [name, img] : imgs)
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      p.algorithm = ccl::Algorithm::Fast;
      expect_equal_to_oracle(ccl::label_cuda(img, p), oracle_label(img, p, nullptr),
                             tag(name, p.algorithm, conn));
    }
#endif
}

// `fast` labels row pairs (runs of row 2k | row 2k + 1; with 4-connectivity cut where neither row
// continues) and unites only rows 2k - 1 and 2k: odd heights (the last pair has one row), steps
// that touch only diagonally between rows (or miss by one column), V shapes whose left arm
// starts in a pair's second row while the component's first pixel is further right in the
// pair's first row (or one pair higher), arms next to tile borders, runs that hand over from one
// row of a pair to the other across 32-pixel words (joined with 4-connectivity only where both
// rows overlap), and noise on heights that cut pairs and tiles.
TEST(GpuCclSmall, FastRowPairs) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::vector<std::pair<std::string, Image8>> imgs;
  for (int step : {4, 5, -4, -5}) {
    Image8 d(613, 71);
    for (int y = 0; y < d.height; ++y)
      for (int x = 0; x < d.width; ++x)
        if (((x - step * y) % 64 + 64) % 64 < 4) d.at(x, y) = 200;
    imgs.push_back({"steps" + std::to_string(step), std::move(d)});
  }
  Image8 v(540, 66);  // V shapes: arms meet below; the left arm starts one row lower
  for (int x0 = 0; x0 + 24 < v.width; x0 += 27)
    for (int i = 0; i < 12; ++i) {
      const int top = (x0 / 27) % 31;
      if (top + 1 + i < v.height) v.at(x0 + i, top + 1 + i) = 255;
      if (top + i < v.height) v.at(x0 + 23 - i, top + i) = 255;
    }
  imgs.push_back({"v_shapes", std::move(v)});
  // Row 2k on at [a, a + len), row 2k + 1 at [a + len + gap, ...): gap -1 overlaps by one column
  // (one component), 0 touches diagonally (two with 4-connectivity); a near word ends.
  Image8 hand(577, 40);
  for (int y = 0; y + 1 < hand.height; y += 2)
    for (int a = 5 + 3 * y, k = 0; a + 40 < hand.width; a += 61, ++k) {
      const int len = 7 + (k + y) % 27, gap = (k + y / 2) % 3 - 1;
      for (int x = a; x < a + len; ++x) hand.at(x, y) = 255;
      for (int x = a + len + gap; x < a + 2 * len + gap; ++x) hand.at(x, y + 1) = 255;
    }
  imgs.push_back({"hand_over", std::move(hand)});
  Image8 blocks(389, 37);  // 3-wide blocks shifted by 3 each row: diagonal-only contacts
  for (int y = 0; y < blocks.height; ++y)
    for (int x = 0; x < blocks.width; ++x)
      if ((x / 3 + y) % 2 == 0) blocks.at(x, y) = 99;
  imgs.push_back({"blocks3", std::move(blocks)});
  for (int hgt : {1, 2, 3, 31, 33, 63, 65})
    for (double d : {0.35, 0.5, 0.65})
      imgs.push_back({"random" + std::to_string(int(d * 100)) + "_301x" + std::to_string(hgt),
                      sim::make_test_image("random:" + std::to_string(d), 301, hgt, 7 + hgt)});
  expect_fast_equal_to_oracle(imgs, 3);
#endif
}

// `fast` numbers a tile's components in shared-memory slots, several passes when a tile holds
// more than fit (4096 in a 32 x 256 tile of a 4-connected checkerboard): every connectivity, with
// and without intensity weighting, against the oracle.
TEST(GpuCclSmall, FastManyComponentsPerTile) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::vector<std::pair<std::string, Image8>> imgs;
  imgs.push_back({"checker1_600x70", test::checkerboard(600, 70, 1)});
  Image8 dots(531, 77);  // isolated pixels: 2048 components per tile with 8-connectivity too
  for (int y = 0; y < dots.height; y += 2)
    for (int x = 0; x < dots.width; x += 2) dots.at(x, y) = 255;
  imgs.push_back({"dots_531x77", std::move(dots)});
  expect_fast_equal_to_oracle(imgs, 9);
#endif
}

// `fast` adds up the statistics of components that span tiles and hold several slots of a warp
// in a 16-entry table per tile before the global atomics: one component entering a tile through
// hundreds of local components (a comb whose teeth join only in the first row), more such
// components in a tile than the table holds (forks: pairs of teeth joined in the first row, 64
// a tile; the rest go straight to the global atomics), and noise near the percolation
// thresholds; 4 and 8, with and without intensity weighting.
TEST(GpuCclSmall, FastBorderTable) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::vector<std::pair<std::string, Image8>> imgs;
  Image8 comb(1000, 150);
  for (int x = 0; x < comb.width; ++x) comb.at(x, 0) = 200;
  for (int y = 0; y < comb.height; ++y)
    for (int x = 0; x < comb.width; x += 2) comb.at(x, y) = 200;
  imgs.push_back({"comb_1000x150", std::move(comb)});
  Image8 forks(1030, 140);
  for (int x = 0; x + 2 < forks.width; x += 4) {
    forks.at(x + 1, 0) = 90;
    for (int y = 0; y < forks.height; ++y) forks.at(x, y) = forks.at(x + 2, y) = 90;
  }
  imgs.push_back({"forks_1030x140", std::move(forks)});
  for (double d : {0.45, 0.6})
    imgs.push_back({"random" + std::to_string(int(d * 100)) + "_777x130",
                    sim::make_test_image("random:" + std::to_string(d), 777, 130, 5)});
  expect_fast_equal_to_oracle(imgs, 11);
#endif
}

// Without an intensity image `fast` keeps its statistics as one record a component (components
// inside a tile whole, those spanning tiles in the record and four arrays) while both sides are
// <= 65536, else as arrays; both layouts, with and without the area filter (which reads the area
// from either), against the oracle.
TEST(GpuCclSmall, FastStatisticsLayouts) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::vector<std::pair<std::string, Image8>> imgs;
  imgs.push_back({"random45_300x200", sim::make_test_image("random:0.45", 300, 200, 3)});
  imgs.push_back({"random60_65536x3", sim::make_test_image("random:0.6", 65536, 3, 4)});
  imgs.push_back({"random50_70001x3", sim::make_test_image("random:0.5", 70001, 3, 5)});
  imgs.push_back({"random50_3x70001", sim::make_test_image("random:0.5", 3, 70001, 6)});
  for (const auto& [name, img] : imgs)
    for (int conn : {4, 8})
      for (int64_t min_area : {0, 3}) {
        ccl::LabelParams p;
        p.connectivity = conn;
        p.algorithm = ccl::Algorithm::Fast;
        p.min_area = min_area;
        expect_equal_to_oracle(
            ccl::label_cuda(img, p), oracle_label(img, p),
            tag(name + " min_area " + std::to_string(min_area), p.algorithm, conn));
      }
#endif
}

TEST(GpuCclSmall, IntensityGeometryFilterAndHoles) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  ccl::LabelParams p;
  p.geometry = {40.5, 20.25, 3.5};
  p.min_area = 2;
  p.max_area = 60;
  check_cases(false, p, true);
  ccl::LabelParams h;
  h.fill_holes = true;
  h.hole_max_area = 5;
  check_cases(false, h, false);
  h.hole_max_area = 0;
  h.min_area = 3;
  check_cases(false, h, true);
#endif
}

TEST(GpuCclSmall, HolesEveryAlgorithm) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  Image8 img = test::frames(67, 45);
  for (int conn : {4, 8})
    for (int64_t hole_max : {0, 5}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      p.fill_holes = true;
      p.hole_max_area = hole_max;
      auto want = oracle_label(img, p);
      for (auto a : kAlgorithms) {
        p.algorithm = a;
        expect_equal_to_oracle(label_gpu(img, p), want, tag("holes", a, conn));
      }
    }
#endif
}

TEST(GpuCclSmall, KangBoxMethodsAgree) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  for (auto m :
       {ccl::BoxMethod::Atomic, ccl::BoxMethod::LockPerBox, ccl::BoxMethod::LockPerCoordinate})
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.algorithm = ccl::Algorithm::Kang;
      p.box_method = m;
      p.connectivity = conn;
      for (const char* spec : {"random:0.3", "random:0.8", "stars"}) {
        Image8 img = sim::make_test_image(spec, 181, 143, 21);
        expect_equal_to_oracle(label_gpu(img, p), oracle_label(img, p),
                               std::string(spec) + " " + ccl::to_string(m));
      }
    }
#endif
}

// The algorithm is an explicit parameter: the product's labeller and factory run `fast` only and
// refuse the others before any device work; the reference library's factory makes each
// algorithm's labeller. Needs no device.
TEST(GpuCclSelection, AlgorithmsChosenByTheParameter) {
#ifdef SWEEPLINE_HAVE_CUDA
  for (auto a : kAlgorithms) {
    auto lab = gpu::reference::make_cuda_labeller(a);
    ASSERT_NE(lab, nullptr);
    EXPECT_EQ(lab->algorithm(), a) << ccl::to_string(a);
  }
  EXPECT_EQ(gpu::cuda::make_product_labeller(ccl::Algorithm::Fast)->algorithm(),
            ccl::Algorithm::Fast);
  Image8 img(8, 8);
  for (auto a : {ccl::Algorithm::Kang, ccl::Algorithm::Propagate}) {
    ccl::LabelParams p;
    p.algorithm = a;
    EXPECT_THROW(gpu::cuda::make_product_labeller(a), Error) << ccl::to_string(a);
    gpu::cuda::CclLabeller fast;
    EXPECT_THROW(fast.label(nullptr, nullptr, 8, 8, p, nullptr), Error) << ccl::to_string(a);
    gpu::cuda::SelectedLabeller product;  // the product's factory
    EXPECT_THROW(product.label(nullptr, nullptr, 8, 8, p, nullptr), Error) << ccl::to_string(a);
    EXPECT_THROW(ccl::label_cuda(img, p), Error) << ccl::to_string(a);
    // A reference labeller refuses parameters that name another algorithm.
    auto other = gpu::reference::make_cuda_labeller(
        a == ccl::Algorithm::Kang ? ccl::Algorithm::Propagate : ccl::Algorithm::Kang);
    EXPECT_THROW(other->label(nullptr, nullptr, 8, 8, p, nullptr), Error) << ccl::to_string(a);
  }
#else
  GTEST_SKIP() << "built without the CUDA backend";
#endif
}

// One SelectedLabeller (what the CUDA pipeline holds) with the reference factory follows
// params.algorithm from frame to frame: each frame runs the named algorithm (its own stages in
// the times) and equals the oracle.
TEST(GpuCclSmall, SelectedLabellerFollowsTheParameter) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  const int w = 301, h = 77;
  Image8 img = sim::make_test_image("random:0.45", w, h, 13);
  DeviceFrame f(img.size());
  ASSERT_TRUE(f.ok());
  // A stage only that algorithm's labeller marks.
  auto own_stage = [](ccl::Algorithm a) {
    return a == ccl::Algorithm::Fast   ? "label_stats_numbering"
           : a == ccl::Algorithm::Kang ? "hierarchical_merge"
                                       : "propagate";
  };
  {
    gpu::cuda::SelectedLabeller lab(gpu::reference::make_cuda_labeller);
    for (auto a : {ccl::Algorithm::Kang, ccl::Algorithm::Fast, ccl::Algorithm::Propagate,
                   ccl::Algorithm::Fast, ccl::Algorithm::Kang})
      for (int conn : {4, 8}) {
        ccl::LabelParams p;
        p.algorithm = a;
        p.connectivity = conn;
        f.upload(img);
        lab.label(f.image(), nullptr, w, h, p, f.stream());
        ASSERT_NE(lab.current(), nullptr);
        EXPECT_EQ(lab.current()->algorithm(), a);
        auto got = lab.fetch(true);
        bool seen = false;
        for (const auto& st : got.times) seen = seen || st.stage == own_stage(a);
        EXPECT_TRUE(seen) << tag("selected", a, conn) << ": no stage " << own_stage(a);
        expect_equal_to_oracle(got, oracle_label(img, p), tag("selected", a, conn));
      }
  }
#endif
}

TEST(GpuCclSmall, StatisticsOverflowFallsBackToTheHost) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  Image8 img = sim::make_test_image("random:0.3", 97, 89, 5);
  Image8 in = test::random_intensity(97, 89, 6);
  DeviceFrame f(img.size());
  ASSERT_TRUE(f.ok());
  f.upload(img, &in);
  for (auto a : kAlgorithms) {
    auto lab = gpu::reference::make_cuda_labeller(a);
    lab->set_statistics_capacity_limit(10);
    for (int64_t min_area : {0, 2}) {
      ccl::LabelParams p;
      p.algorithm = a;
      p.min_area = min_area;
      lab->label(f.image(), f.intensity(), img.width, img.height, p, f.stream());
      auto got = lab->fetch(true);
      EXPECT_EQ(lab->statistics_capacity(), 10);
      expect_equal_to_oracle(got, oracle_label(img, p, &in), tag("overflow", a, 8));
      // The device label image is filtered too.
      ImageI32 dev(img.width, img.height);
      cudaMemcpy(dev.pixels.data(), lab->d_labels(), dev.size() * 4, cudaMemcpyDeviceToHost);
      EXPECT_EQ(dev, got.labels);
    }
  }
#endif
}

TEST(GpuCclSmall, ComponentLimitCollectsNothingLikeTheCpu) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  const Image8 img = test::checkerboard(200, 100, 1);  // 4-connected: 10000 components
  DeviceFrame f(img.size());
  ASSERT_TRUE(f.ok());
  f.upload(img, nullptr);
  for (auto a : kAlgorithms) {
    auto lab = gpu::reference::make_cuda_labeller(a);
    for (int64_t capacity : {int64_t(1) << 20, int64_t(100)}) {  // device statistics, host path
      lab->set_statistics_capacity_limit(capacity);
      ccl::LabelParams p;
      p.algorithm = a;
      p.connectivity = 4;
      p.max_components = 9999;
      lab->label(f.image(), nullptr, img.width, img.height, p, f.stream());
      const ccl::LabelResult over = lab->fetch(true);
      const std::string t = tag("limit", a, 4) + " capacity " + std::to_string(capacity);
      EXPECT_TRUE(over.limit_exceeded) << t;
      EXPECT_EQ(over.found, 10000) << t;
      EXPECT_EQ(over.count, 0) << t;
      EXPECT_TRUE(over.components.empty()) << t;
      EXPECT_EQ(over.labels, ImageI32(img.width, img.height, 0)) << t;
      ImageI32 dev(img.width, img.height);
      cudaMemcpy(dev.pixels.data(), lab->d_labels(), dev.size() * 4, cudaMemcpyDeviceToHost);
      EXPECT_EQ(dev, over.labels) << t << ": the device label image is cleared too";
      p.max_components = 10000;
      lab->label(f.image(), nullptr, img.width, img.height, p, f.stream());
      const ccl::LabelResult all = lab->fetch(true);
      EXPECT_FALSE(all.limit_exceeded) << t;
      expect_equal_to_oracle(all, oracle_label(img, p, nullptr), t);
    }
  }
#endif
}

TEST(GpuCclSmall, FastWithoutStatistics) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  // set_statistics(false): the same label image (ids 1..n in raster order) and count, no
  // components; switching back gives the statistics again. Widths: rows of whole tiles (768)
  // and not (611).
  const int w = 768, h = 203;
  std::vector<std::pair<std::string, Image8>> imgs;
  for (int iw : {611, w}) {
    for (const char* spec : {"random:0.3", "random:0.5", "random:0.6"})
      imgs.push_back(
          {std::string(spec) + " " + std::to_string(iw), sim::make_test_image(spec, iw, h, 21)});
    imgs.push_back({"checker1 " + std::to_string(iw), test::checkerboard(iw, h, 1)});
  }
  DeviceFrame f(size_t(w) * h);
  ASSERT_TRUE(f.ok());
  {
    gpu::cuda::CclLabeller lab;
    for (const auto& [name, img] : imgs) {
      Image8 in = test::random_intensity(img.width, h, 23);
      f.upload(img, &in);
      for (int conn : {4, 8})
        for (bool weighted : {false, true}) {
          ccl::LabelParams p;
          p.connectivity = conn;
          auto want = oracle_label(img, p, weighted ? &in : nullptr);
          const std::string t = tag(name + (weighted ? " weighted" : ""), p.algorithm, conn);
          lab.set_statistics(false);
          auto got = label_frame(lab, f, img, p, true, weighted);
          EXPECT_EQ(size_t(got.count), want.components.size()) << t;
          EXPECT_TRUE(got.components.empty()) << t;
          EXPECT_TRUE(got.labels == want.labels) << t << ": label images differ";
          lab.set_statistics(true);
          expect_equal_to_oracle(label_frame(lab, f, img, p, true, weighted), want,
                                 t + " stats again");
        }
    }
    ccl::LabelParams p;
    p.min_area = 2;
    lab.set_statistics(false);
    EXPECT_ANY_THROW(lab.label(f.image(), nullptr, w, h, p, f.stream()));
  }
#endif
}

TEST(GpuCclSmall, GraphReplayAcrossFramesAndParameters) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  const int w = 203, h = 117;
  DeviceFrame f(size_t(w) * h);
  ASSERT_TRUE(f.ok());
  {
    gpu::cuda::CclLabeller lab;
    for (int frame = 0; frame < 6; ++frame) {
      Image8 img = sim::make_test_image("random:0." + std::to_string(2 + frame), w, h, frame);
      ccl::LabelParams p;
      p.connectivity = frame % 2 ? 4 : 8;
      p.min_area = frame >= 4 ? 3 : 0;
      auto got = label_frame(lab, f, img, p, frame % 3 != 0);
      auto want = oracle_label(img, p);
      if (frame % 3 == 0) {
        EXPECT_TRUE(got.labels.empty());
        got.labels = want.labels;  // not fetched: compare the statistics only
      }
      expect_equal_to_oracle(got, want, "frame " + std::to_string(frame));
      EXPECT_FALSE(got.times.empty());
    }
  }
#endif
}

// Sparse frames after dense ones in one labeller: `fast` skips empty tiles and writes no local
// roots for empty words, so the label image still holds the previous frame's labels there. Blobs
// and lines in a few tiles, crossing the borders between occupied tiles and ending next to empty
// ones, one pixel in a tile corner, on a size that cuts tiles; with and without statistics.
TEST(GpuCclSmall, FastSparseFramesAfterDenseOnes) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  const int w = 1031, h = 133;
  DeviceFrame f(size_t(w) * h);
  ASSERT_TRUE(f.ok());
  auto sparse = [&](int variant) {
    Image8 img(w, h);
    for (int y = 28; y < 37; ++y)  // a blob across a tile row border
      for (int x = 250 + variant; x < 262 + variant; ++x) img.at(x, y) = 200;
    for (int x = 500; x < 800; ++x) img.at(x, 70 + variant % 3) = 90;  // a line across 2 tiles
    for (int y = 0; y < h; ++y) img.at(1030 - variant, y) = 7;         // a column, right edge
    img.at(767, 95) = img.at(768, 96) = 1;  // diagonal contact across a tile column border
    img.at(0, 0) = img.at(255, 31) = img.at(1023, 127) = 3;  // tile corners
    return img;
  };
  {
    gpu::cuda::CclLabeller lab;
    for (int frame = 0; frame < 8; ++frame) {
      const bool dense = frame % 2 == 0;
      Image8 img = dense ? sim::make_test_image("random:0.5", w, h, frame) : sparse(frame);
      ccl::LabelParams p;
      p.connectivity = frame % 4 < 2 ? 8 : 4;
      p.algorithm = ccl::Algorithm::Fast;
      lab.set_statistics(frame != 5);
      auto got = label_frame(lab, f, img, p, true);
      auto want = oracle_label(img, p);
      if (frame == 5) {
        EXPECT_EQ(size_t(got.count), want.components.size());
        EXPECT_TRUE(got.components.empty());
        got.components = want.components;  // labels only: compare the label image
      }
      expect_equal_to_oracle(got, want, "frame " + std::to_string(frame));
    }
  }
#endif
}

// The label image in compressible memory (the default where the device offers it) and in
// plain memory give the same result; switching between the two in one labeller
// reallocates. Mostly empty frames (what compresses) and dense ones, 4 and 8, weighted or not.
TEST(GpuCclSmall, CompressibleAndPlainMemoryAgree) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  const int w = 1031, h = 133;
  std::vector<std::pair<std::string, Image8>> imgs;
  for (const char* spec : {"random:0.02", "random:0.5", "stars"})
    imgs.push_back({spec, sim::make_test_image(spec, w, h, 31)});
  imgs.push_back({"checker1", test::checkerboard(w, h, 1)});
  DeviceFrame f(size_t(w) * h);
  ASSERT_TRUE(f.ok());
  Image8 in = test::random_intensity(w, h, 37);
  {
    gpu::cuda::CclLabeller lab;
    for (const auto& [name, img] : imgs) {
      f.upload(img, &in);
      for (int conn : {4, 8})
        for (bool weighted : {false, true})
          for (bool compressible : {true, false}) {
            ccl::LabelParams p;
            p.connectivity = conn;
            lab.set_compressible_memory(compressible);
            const std::string t = tag(
                name + (weighted ? " weighted" : "") + (compressible ? " compressible" : " plain"),
                p.algorithm, conn);
            expect_equal_to_oracle(label_frame(lab, f, img, p, true, weighted),
                                   oracle_label(img, p, weighted ? &in : nullptr), t);
            if (!compressible) {
              EXPECT_FALSE(lab.compressible_memory()) << t;
            }
          }
    }
  }
#endif
}

TEST(GpuCcl, EqualsOracleOnLargerImages) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  check_cases(true, {}, false);
#endif
}

TEST(GpuCcl, OddSize4095x4097AndScratchBudget) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  for (const char* spec : {"random:0.5", "random:0.1", "random:0.9"}) {
    Image8 img = sim::make_test_image(spec, 4095, 4097, 8);
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      auto want = oracle_label(img, p);
      for (auto a : kAlgorithms) {
        p.algorithm = a;
        expect_equal_to_oracle(label_gpu(img, p), want, tag(spec, a, conn));
        if (HasFatalFailure()) return;
      }
    }
  }
  // Scratch beyond the label image at 4096^2: at most 200 MB, by the owner's account and by the
  // device's free memory.
  Image8 img = sim::make_test_image("random:0.5", 4096, 4096, 1);
  DeviceBytes d_img(img.size());
  ASSERT_TRUE(d_img);
  cudaMemcpy(d_img, img.pixels.data(), img.size(), cudaMemcpyHostToDevice);
  size_t before = used_device_bytes();
  {
    gpu::cuda::CclLabeller lab;
    TestStream s;
    ASSERT_TRUE(s.ok());
    lab.label(d_img, nullptr, 4096, 4096, {}, s);
    auto r = lab.fetch(false);
    size_t after = used_device_bytes();
    size_t label_image = size_t(4096) * 4096 * 4;
    std::printf("scratch %zu bytes (owner), device delta %zu bytes incl. label image\n",
                lab.scratch_bytes(), after - before);
    EXPECT_LE(lab.scratch_bytes(), size_t(200'000'000));
    EXPECT_LE(after - before, label_image + size_t(200'000'000) + (size_t(8) << 20));
    EXPECT_GT(r.count, 0);
  }
#endif
}

TEST(GpuCcl, SpiralsAndStarsAtFullSize) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  for (const char* spec : {"spirals", "stars"}) {
    Image8 img = sim::make_test_image(spec, 4096, 4096, 2);
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      auto want = oracle_label(img, p);
      for (auto a : kAlgorithms) {
        p.algorithm = a;
        expect_equal_to_oracle(label_gpu(img, p), want, tag(spec, a, conn));
      }
    }
  }
#endif
}

TEST(GpuCcl, AgreesWithTheCpuBackend) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  Image8 img = sim::make_test_image("random:0.6", 2001, 1501, 3);
  Image8 in = test::random_intensity(2001, 1501, 4);
  ccl::LabelParams p;
  p.geometry = {1000, 750, 12.5};
  p.fill_holes = true;
  p.hole_max_area = 4;
  p.min_area = 2;
  auto cpu = ccl::label_cpu(img, p, &in);
  test::OracleResult as_oracle{cpu.labels, cpu.components};
  for (auto a : kAlgorithms) {
    p.algorithm = a;
    expect_equal_to_oracle(label_gpu(img, p, &in), as_oracle, ccl::to_string(a));
  }
#endif
}
