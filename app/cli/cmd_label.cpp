// `sweepline label IMAGE`: connected components of an 8-bit image (on where value > threshold),
// on the CPU or the GPU, as a table or as JSON. On the GPU `--algorithm` picks the product's
// `fast` or one of the papers' algorithms (gpu/reference).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>

#include "app/cli/command.hpp"
#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "gpu/backend/cuda_availability.hpp"
#include "gpu/ccl/ccl.hpp"
#ifdef SWEEPLINE_HAVE_REFERENCE
#include "gpu/reference/ccl_reference.hpp"
#elif defined(SWEEPLINE_HAVE_CUDA)
#include "gpu/cuda/ccl_cuda.hpp"
#endif

namespace sweepline::cli {

namespace {

struct LabelOptions {
  std::string image;
  int connectivity = 8;
  std::string algorithm = "fast";
  std::string backend = "cpu";
  std::string box_method = "atomic";
  int threshold = 0;
  int64_t min_area = 0;
  int64_t max_area = 0;
  int64_t fill_holes = -1;  // -1: off; else the hole area limit (0: any size)
  int64_t max_components = ccl::kDefaultMaxComponents;
  bool json = false;
};

int run_label(const LabelOptions& o) {
  Image8 img = read_image(o.image);  // throws with the path and the reason
  ccl::LabelParams p;
  p.connectivity = o.connectivity;
  p.algorithm = ccl::algorithm_from_string(o.algorithm);
  p.box_method = ccl::box_method_from_string(o.box_method);
  p.threshold = uint8_t(o.threshold);
  p.min_area = o.min_area;
  p.max_area = o.max_area;
  p.fill_holes = o.fill_holes >= 0;
  p.hole_max_area = std::max<int64_t>(0, o.fill_holes);
  p.max_components = o.max_components;
  ccl::LabelResult r;
  if (o.backend == "cuda") {
    std::string why = gpu::cuda_unavailable_reason();
    SWL_CHECK(why.empty(), "--backend cuda: " + why);
#ifdef SWEEPLINE_HAVE_REFERENCE
    r = gpu::reference::label_cuda(img, p);
#elif defined(SWEEPLINE_HAVE_CUDA)
    r = ccl::label_cuda(img, p);  // `fast` only: the reference algorithms are not built
#endif
  } else {
    r = ccl::label_cpu(img, p);
  }
  // Too many components to collect: a clear refusal, not a partial table.
  SWL_CHECK(!r.limit_exceeded, o.image + ": " + ccl::limit_message(r, p) +
                                   "; --max-components raises the limit (0: none)");
  if (o.json) {
    nlohmann::ordered_json j;
    j["width"] = img.width;
    j["height"] = img.height;
    j["connectivity"] = p.connectivity;
    j["algorithm"] = o.backend == "cpu" ? std::string("runs") : o.algorithm;
    j["backend"] = o.backend;
    j["count"] = r.count;
    nlohmann::ordered_json comps = nlohmann::ordered_json::array();
    for (const auto& c : r.components)
      comps.push_back({{"label", c.label},
                       {"area", c.area},
                       {"xmin", c.xmin},
                       {"xmax", c.xmax},
                       {"ymin", c.ymin},
                       {"ymax", c.ymax},
                       {"cx", c.cx},
                       {"cy", c.cy}});
    j["components"] = comps;
    nlohmann::ordered_json t = nlohmann::ordered_json::object();
    for (const auto& s : r.times) t[s.stage] = s.ms;
    j["timing_ms"] = t;
    std::printf("%s\n", j.dump(1).c_str());
    return 0;
  }
  std::printf("%s: %dx%d, %d-connected, %s on %s: %d components\n", o.image.c_str(), img.width,
              img.height, p.connectivity, o.backend == "cpu" ? "runs" : o.algorithm.c_str(),
              o.backend.c_str(), r.count);
  std::printf("%8s %10s %6s %6s %6s %6s %10s %10s\n", "label", "area", "xmin", "xmax", "ymin",
              "ymax", "cx", "cy");
  for (const auto& c : r.components)
    std::printf("%8d %10lld %6d %6d %6d %6d %10.3f %10.3f\n", c.label, (long long)c.area, c.xmin,
                c.xmax, c.ymin, c.ymax, c.cx, c.cy);
  for (const auto& s : r.times) std::printf("# %s: %.3f ms\n", s.stage.c_str(), s.ms);
  return 0;
}

}  // namespace

Command add_label_command(CLI::App& parent) {
  auto o = std::make_shared<LabelOptions>();
  Command c;
  c.app = parent.add_subcommand("label", "Connected components of an 8-bit PGM or PNG image");
  c.app->add_option("IMAGE", o->image, "8-bit PGM (P5) or PNG; a pixel is on when > threshold")
      ->required();
  c.app->add_option("--connectivity", o->connectivity, "4 or 8")
      ->check(CLI::IsMember({4, 8}))
      ->capture_default_str();
  c.app->add_option("--algorithm", o->algorithm, "CUDA algorithm: fast, kang or propagate")
      ->check(CLI::IsMember({"fast", "kang", "propagate"}))
      ->capture_default_str();
  c.app->add_option("--backend", o->backend, "cpu or cuda")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  c.app
      ->add_option("--box-method", o->box_method,
                   "kang's bounding boxes: atomic, alg6 (lock per box), alg7 (lock per coordinate)")
      ->check(CLI::IsMember({"atomic", "alg6", "alg7"}))
      ->capture_default_str();
  c.app->add_option("--threshold", o->threshold, "A pixel is on when its value > T (0..255)")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  c.app->add_option("--min-area", o->min_area, "Drop components smaller than this (pixels)")
      ->check(CLI::NonNegativeNumber);
  c.app->add_option("--max-area", o->max_area, "Drop components larger than this (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  c.app
      ->add_option("--fill-holes", o->fill_holes,
                   "Fill enclosed background below this area first (0: every hole)")
      ->check(CLI::NonNegativeNumber);
  c.app
      ->add_option("--max-components", o->max_components,
                   "Refuse the image when it has more components than this (0: no limit); each "
                   "costs about 130 bytes")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  c.app->add_flag("--json", o->json, "Print JSON");
  c.run = [o] { return run_label(*o); };
  return c;
}

}  // namespace sweepline::cli
