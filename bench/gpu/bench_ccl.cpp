// Labelling benchmark (CUDA events, median of many runs after warm-up): the product's `fast` and,
// for comparison, the papers' algorithms (gpu/reference, chosen by LabelParams::algorithm) on
// the papers' workloads -- random images of density 0.1..0.9 (paper 001 Tables 1-2), the spirals
// and stars test images at 512..4096 (paper 001), radar-like frames with 50 and 1869 vessels per
// phase with Alg. 6 / Alg. 7 / atomic boxes (paper 000 Table 1). The timed span of `fast` is the
// whole frame: threshold, labels, consecutive numbering and statistics; a `fast_nostats` row
// next to each `fast` one times labels and consecutive numbering alone (like for like with
// label-only peers such as cupyx.scipy.ndimage.label).
// Usage: bench_ccl [--json PATH] [--save-images DIR] [--budget-ms MS] [--max-reps N] [--quick]
//                  [--fast-only] [--plain-memory] [--only SPEC] [--conn 4|8]
//   --only SPEC / --conn N keep only the images whose spec contains SPEC / that connectivity (to
//   profile one case, e.g. with ncu).
//   --fast-only measures `fast` alone (a quick run).
//   --plain-memory puts the label image in plain device memory instead of compressible memory
//   (CudaLabeller::set_compressible_memory(false), for an A/B run).
//   --save-images writes every 4096^2 image used as PGM and fast's 8-connected labels as raw
//   int32 (NAME.labels8.i32) for scripts/bench-peers.py.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "app/sim/test_images.hpp"
#include "gpu/ccl/ccl.hpp"
#include "gpu/cuda/ccl_cuda.hpp"
#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/device_probe.hpp"
#include "gpu/reference/ccl_reference.hpp"

using namespace sweepline;
using nlohmann::ordered_json;

namespace {

struct Options {
  std::string json_path, save_dir;
  double budget_ms = 600;
  int max_reps = 200;
  bool quick = false;
  bool fast_only = false;
  bool plain_memory = false;  // the label image in plain memory (else compressible)
  std::string only;           // keep images whose spec contains this
  int conn = 0;               // keep this connectivity (0: both; skip() with c = 0: any)
  bool skip(const std::string& spec, int c) const {
    return (!only.empty() && spec.find(only) == std::string::npos) ||
           (conn != 0 && c != 0 && c != conn);
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Measure {
  double median_ms = 0, min_ms = 0;
  int reps = 0;
  int32_t count = 0;
  std::map<std::string, double> stages;  // medians
  std::vector<std::string> stage_order;
};

// One device image and, per algorithm, a labeller: the product's CclLabeller for `fast` (which
// also has the profile and no-statistics modes), the reference library's for the others.
class Bench {
 public:
  explicit Bench(bool plain_memory) : d_img_(size_t(4096) * 4096) {
    fast_.set_compressible_memory(!plain_memory);
    plain_memory_ = plain_memory;
  }
  void upload(const Image8& img) {
    SWL_CUDA_CHECK(cudaMemcpy(d_img_.get(), img.pixels.data(), img.size(), cudaMemcpyHostToDevice));
    w_ = img.width;
    h_ = img.height;
  }
  Measure run(const ccl::LabelParams& p, const Options& o) {
    gpu::cuda::CudaLabeller& lab = labeller(p.algorithm);
    const cudaStream_t s = s_.get();
    Measure m;
    auto once = [&] {
      SWL_CUDA_CHECK(cudaEventRecord(a_.get(), s));
      lab.label(d_img_.get(), weighted_ ? d_img_.get() : nullptr, w_, h_, p, s);
      SWL_CUDA_CHECK(cudaEventRecord(b_.get(), s));
      SWL_CUDA_CHECK(cudaEventSynchronize(b_.get()));
      float ms = 0;
      SWL_CUDA_CHECK(cudaEventElapsedTime(&ms, a_.get(), b_.get()));
      return double(ms);
    };
    once();  // allocation, graph capture
    double t = once();
    int reps = std::clamp(int(o.budget_ms / std::max(t, 1e-3)), 5, o.max_reps);
    std::vector<double> total;
    std::map<std::string, std::vector<double>> st;
    for (int i = 0; i < reps; ++i) {
      total.push_back(once());
      for (const auto& x : lab.stage_times()) {
        if (!st.count(x.stage)) m.stage_order.push_back(x.stage);
        st[x.stage].push_back(x.ms);
      }
    }
    m.median_ms = median(total);
    m.min_ms = *std::min_element(total.begin(), total.end());
    m.reps = reps;
    for (auto& [k, v] : st) m.stages[k] = median(v);
    m.count = lab.fetch(false).count;
    return m;
  }
  ccl::LabelResult labels(const ccl::LabelParams& p) {
    gpu::cuda::CudaLabeller& lab = labeller(p.algorithm);
    lab.label(d_img_.get(), nullptr, w_, h_, p, s_.get());
    return lab.fetch(true);
  }
  size_t scratch() const { return fast_.scratch_bytes(); }
  bool compressible() const { return fast_.compressible_memory(); }
  void profile(bool on) { fast_.set_profile_stages(on); }
  void statistics(bool on) { fast_.set_statistics(on); }
  // The image weights its own centroids (as the console's scan image does).
  void weighted(bool on) { weighted_ = on; }

 private:
  gpu::cuda::CudaLabeller& labeller(ccl::Algorithm a) {
    if (a == ccl::Algorithm::Fast) return fast_;
    auto& r = reference_[a];
    if (!r) {
      r = gpu::reference::make_cuda_labeller(a);
      r->set_compressible_memory(!plain_memory_);
    }
    return *r;
  }

  gpu::cuda::Stream s_;
  gpu::cuda::Event a_, b_;
  gpu::cuda::DeviceBuffer<uint8_t> d_img_;
  int w_ = 0, h_ = 0;
  bool weighted_ = false;
  bool plain_memory_ = false;
  gpu::cuda::CclLabeller fast_;
  std::map<ccl::Algorithm, std::unique_ptr<gpu::cuda::CudaLabeller>> reference_;
};

ordered_json to_json(const Measure& m) {
  ordered_json j;
  j["median_ms"] = m.median_ms;
  j["min_ms"] = m.min_ms;
  j["reps"] = m.reps;
  j["count"] = m.count;
  ordered_json s = ordered_json::object();
  for (const auto& k : m.stage_order) s[k] = m.stages.at(k);
  j["stages_ms"] = s;
  return j;
}

const ccl::Algorithm kAlgs[] = {ccl::Algorithm::Fast, ccl::Algorithm::Kang,
                                ccl::Algorithm::Propagate};

std::string fmt_density(double d) {
  char b[16];
  std::snprintf(b, sizeof b, "%.2f", d);
  return b;
}

}  // namespace

int run(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--json")
      o.json_path = next();
    else if (a == "--save-images")
      o.save_dir = next();
    else if (a == "--budget-ms")
      o.budget_ms = std::stod(next());
    else if (a == "--max-reps")
      o.max_reps = std::stoi(next());
    else if (a == "--quick")
      o.quick = true;
    else if (a == "--fast-only")
      o.fast_only = true;
    else if (a == "--plain-memory")
      o.plain_memory = true;
    else if (a == "--only")
      o.only = next();
    else if (a == "--conn")
      o.conn = std::stoi(next());
    else {
      std::fprintf(stderr,
                   "usage: bench_ccl [--json PATH] [--save-images DIR] [--budget-ms MS] "
                   "[--max-reps N] [--quick] [--fast-only] [--plain-memory] [--only SPEC] "
                   "[--conn 4|8]\n");
      return 2;
    }
  }
  if (auto why = gpu::cuda::device_probe(); !why.empty()) {
    std::fprintf(stderr, "bench_ccl: %s\n", why.c_str());
    return 1;
  }
  if (!o.save_dir.empty()) std::filesystem::create_directories(o.save_dir);
  ordered_json out;
  out["device"] = gpu::cuda::device_description();
  {
    std::time_t t = std::time(nullptr);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    out["date"] = b;
  }
  Bench bench(o.plain_memory);
  ordered_json saved = ordered_json::array();
  auto save = [&](const std::string& name, const std::string& spec, const Image8& img) {
    if (o.save_dir.empty() || img.width != 4096) return;
    std::string base = o.save_dir + "/" + name;
    write_pgm(base + ".pgm", img);
    ordered_json e;
    e["file"] = name + ".pgm";
    e["spec"] = spec;
    for (int conn : {4, 8}) {
      ccl::LabelParams p;
      p.connectivity = conn;
      auto r = bench.labels(p);
      e["count" + std::to_string(conn)] = r.count;
      if (conn == 8) {
        std::ofstream f(base + ".labels8.i32", std::ios::binary);
        f.write(reinterpret_cast<const char*>(r.labels.pixels.data()),
                std::streamsize(r.labels.size() * 4));
        e["labels8"] = name + ".labels8.i32";
      }
    }
    saved.push_back(e);
  };
  bool all_agree = true;
  // One measurement as a row of `arr` (`base` plus the algorithm and the figures), echoed.
  auto record = [&](ordered_json& arr, const ordered_json& base, const char* algorithm, int conn,
                    const Measure& m) {
    ordered_json j = base;
    j["algorithm"] = algorithm;
    j.update(to_json(m));
    arr.push_back(j);
    std::printf("%-28s conn %d %-12s %10.3f ms  (%d reps, %d components)\n",
                base.dump().substr(0, 28).c_str(), conn, algorithm, m.median_ms, m.reps, m.count);
    std::fflush(stdout);
  };
  auto row = [&](ordered_json& arr, ordered_json base, const ccl::LabelParams& p0) {
    int32_t count = -1;
    for (auto alg : kAlgs) {
      if (o.fast_only && alg != ccl::Algorithm::Fast) continue;
      ccl::LabelParams p = p0;
      p.algorithm = alg;
      Measure m = bench.run(p, o);
      record(arr, base, ccl::to_string(alg), p.connectivity, m);
      if (count >= 0 && m.count != count) all_agree = false;
      count = m.count;
      if (alg != ccl::Algorithm::Fast) continue;
      // Like for like with label-only peers (cupyx): `fast` without statistics (labels and
      // consecutive ids only), an extra row next to the whole frame's, which stays the figure.
      bench.statistics(false);
      Measure ms = bench.run(p, o);
      bench.statistics(true);
      record(arr, base, "fast_nostats", p.connectivity, ms);
      if (ms.count != count) all_agree = false;
    }
  };
  // One set of rows for each connectivity, 8 then 4; `base` gains the connectivity last.
  auto rows_per_connectivity = [&](ordered_json& arr, const std::string& spec, ordered_json base) {
    for (int conn : {8, 4}) {
      if (o.skip(spec, conn)) continue;
      ccl::LabelParams p;
      p.connectivity = conn;
      base["connectivity"] = conn;
      row(arr, base, p);
    }
  };

  // Paper 001, Tables 1-2: random images.
  ordered_json density = ordered_json::array();
  const std::vector<int> sizes = o.quick ? std::vector<int>{4096} : std::vector<int>{2048, 4096};
  for (int size : sizes)
    for (int k = 1; k <= 9; ++k) {
      double d = k / 10.0;
      std::string spec = "random:" + fmt_density(d);
      if (o.skip(spec, 0)) continue;
      Image8 img = sim::make_test_image(spec, size, size, 1000 + k);
      bench.upload(img);
      save("random_" + fmt_density(d), spec, img);
      rows_per_connectivity(density, spec, {{"size", size}, {"density", d}});
    }
  out["random"] = density;

  // Paper 001: test images A (spirals) and B (stars).
  ordered_json images = ordered_json::array();
  for (const char* spec : {"spirals", "stars"})
    for (int size : {512, 1024, 2048, 4096}) {
      if ((o.quick && size != 4096) || o.skip(spec, 0)) continue;
      Image8 img = sim::make_test_image(spec, size, size, 7);
      bench.upload(img);
      save(spec, spec, img);
      rows_per_connectivity(images, spec, {{"image", spec}, {"size", size}});
    }
  out["test_images"] = images;

  // Paper 000, Table 1: radar-like frames, per phase, with each box method for kang.
  ordered_json radar = ordered_json::array();
  for (int n : {50, 1869}) {
    std::string spec = "vessels:" + std::to_string(n);
    if (o.skip(spec, 8)) continue;
    Image8 img = sim::make_test_image(spec, 4096, 4096, 11);
    bench.upload(img);
    save("vessels_" + std::to_string(n), spec, img);
    for (auto alg : kAlgs)
      for (auto box : {ccl::BoxMethod::Atomic, ccl::BoxMethod::LockPerBox,
                       ccl::BoxMethod::LockPerCoordinate}) {
        if (alg != ccl::Algorithm::Kang && box != ccl::BoxMethod::Atomic) continue;
        if (o.fast_only && alg != ccl::Algorithm::Fast) continue;
        ccl::LabelParams p;
        p.connectivity = 8;
        p.algorithm = alg;
        p.box_method = box;
        Measure m = bench.run(p, o);
        ordered_json j = {{"vessels", n},
                          {"algorithm", ccl::to_string(alg)},
                          {"box_method", ccl::to_string(box)}};
        j.update(to_json(m));
        radar.push_back(j);
        if (m.count != n) all_agree = false;
        std::printf("vessels %4d %-10s %-7s %10.3f ms  (%d components)\n", n, ccl::to_string(alg),
                    ccl::to_string(box), m.median_ms, m.count);
        std::fflush(stdout);
      }
  }
  out["radar"] = radar;

  // `fast` broken down by kernel group (no graph, an event after each group: the sum exceeds the
  // graph's time by the launch gaps).
  ordered_json prof = ordered_json::array();
  bench.profile(true);
  for (const char* spec :
       {"random:0.10", "random:0.40", "random:0.50", "random:0.60", "random:0.70", "random:0.80",
        "random:0.90", "spirals", "vessels:1869"}) {
    if (o.skip(spec, 0)) continue;
    Image8 img = sim::make_test_image(spec, 4096, 4096, 5);
    bench.upload(img);
    for (int conn : {8, 4}) {
      if (o.skip(spec, conn)) continue;
      ccl::LabelParams p;
      p.connectivity = conn;
      Measure m = bench.run(p, o);
      ordered_json j = {{"image", spec}, {"connectivity", conn}};
      j.update(to_json(m));
      prof.push_back(j);
      std::printf("profile %-12s conn %d total %.3f ms:", spec, conn, m.median_ms);
      for (const auto& k : m.stage_order) std::printf(" %s %.3f", k.c_str(), m.stages.at(k));
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  // The console's labelling of a radar frame (ui/settings.cpp: intensity-weighted centroids, areas
  // 6..20000, 8-connectivity), as one graph and then by kernel group.
  if (!o.skip("vessels:1869", 8)) {
    bench.upload(sim::make_test_image("vessels:1869", 4096, 4096, 11));
    bench.weighted(true);
    ccl::LabelParams p;
    p.min_area = 6;
    p.max_area = 20000;
    for (bool by_group : {false, true}) {
      bench.profile(by_group);
      Measure m = bench.run(p, o);
      ordered_json j = {{"image", "vessels:1869"},
                        {"connectivity", 8},
                        {"console", true},
                        {"by_group", by_group}};
      j.update(to_json(m));
      prof.push_back(j);
      std::printf("console vessels:1869 conn 8 weighted, areas 6..20000, %s total %.3f ms:",
                  by_group ? "by group" : "graph", m.median_ms);
      for (const auto& k : m.stage_order) std::printf(" %s %.3f", k.c_str(), m.stages.at(k));
      std::printf("  (%d components)\n", m.count);
      std::fflush(stdout);
    }
    bench.weighted(false);
  }
  bench.profile(false);
  out["fast_profile"] = prof;
  out["scratch_bytes_4096"] = bench.scratch();
  // The label image in compressible memory (--plain-memory: plain), as run.
  out["compressible_memory"] = bench.compressible();
  out["all_algorithms_agree"] = all_agree;
  out["saved_images"] = saved;
  std::printf(
      "scratch beyond the label image at 4096^2: %.1f MB; label image %s; algorithms "
      "agree: %s\n",
      double(bench.scratch()) / 1e6, bench.compressible() ? "compressible" : "in plain memory",
      all_agree ? "yes" : "NO");
  if (!o.json_path.empty()) {
    std::ofstream f(o.json_path);
    f << out.dump(1) << "\n";
  }
  return all_agree ? 0 : 1;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_ccl: %s\n", e.what());
    return 1;
  }
}
