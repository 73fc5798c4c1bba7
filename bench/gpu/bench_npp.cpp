// NVIDIA NPP's union-find labeller (nppiLabelMarkersUF, with and without its label compression)
// as a peer, on the exact images bench_ccl saved, in the same run. Built only where the CUDA
// toolkit has NPP. NPP labels regions of equal value, so the background gets labels too; the
// check compares the foreground partition with ours (bench_ccl's <name>.labels8.i32).
//   bench_npp --images DIR [--json PATH] [--reps N]
#include <cuda_runtime.h>
#include <npp.h>
#include <nppi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/cuda_resources.hpp"

namespace {

// NPP calls return an NppStatus (0: success), not a cudaError_t; plain CUDA calls use
// SWL_CUDA_CHECK.
#define NPP_BENCH_CHECK(call)                                                                      \
  do {                                                                                             \
    const auto st_ = (call);                                                                       \
    if (st_ != 0)                                                                                  \
      ::sweepline::throw_error(__FILE__, __LINE__,                                                 \
                               std::string(#call) + " failed (" + std::to_string(int(st_)) + ")"); \
  } while (0)

NppStreamContext stream_context(cudaStream_t s) {
  NppStreamContext c{};
  int dev = 0;
  SWL_CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  SWL_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  c.hStream = s;
  c.nCudaDeviceId = dev;
  c.nMultiProcessorCount = p.multiProcessorCount;
  c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
  c.nSharedMemPerBlock = p.sharedMemPerBlock;
  c.nCudaDevAttrComputeCapabilityMajor = p.major;
  c.nCudaDevAttrComputeCapabilityMinor = p.minor;
  SWL_CUDA_CHECK(cudaStreamGetFlags(s, &c.nStreamFlags));
  return c;
}

// How the foreground pixels of `npp` group against ours: `refines` when every NPP label lies in
// one of our components, `coarsens` when every one of ours has one NPP label; the same
// partition is both.
struct PartitionCheck {
  bool refines = true, coarsens = true;
  size_t npp_labels = 0, our_labels = 0;  // distinct labels on the foreground
  bool same() const { return refines && coarsens; }
};
PartitionCheck compare_foreground(const std::vector<uint32_t>& npp,
                                  const std::vector<int32_t>& ours,
                                  const std::vector<uint8_t>& binary) {
  PartitionCheck c;
  std::unordered_map<uint32_t, int32_t> n2o;
  std::unordered_map<int32_t, uint32_t> o2n;
  for (size_t i = 0; i < binary.size(); ++i) {
    if (!binary[i]) continue;
    auto a = n2o.emplace(npp[i], ours[i]).first;
    auto b = o2n.emplace(ours[i], npp[i]).first;
    c.refines = c.refines && a->second == ours[i];
    c.coarsens = c.coarsens && b->second == npp[i];
  }
  c.npp_labels = n2o.size();
  c.our_labels = o2n.size();
  return c;
}

// Where NPP leaves two 8-adjacent foreground pixels apart: up to `keep` contacts (x, y and the
// neighbour's direction: E, S, SE or SW), so that a refined partition shows which kind of
// contact its 8-way union-find missed.
nlohmann::ordered_json unmerged_contacts(const std::vector<uint32_t>& lab,
                                         const std::vector<uint8_t>& binary, int w, int h,
                                         size_t keep) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const int dx[] = {1, 0, 1, -1}, dy[] = {0, 1, 1, 1};
  const char* name[] = {"E", "S", "SE", "SW"};
  std::vector<size_t> per_dir(4, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(y) * size_t(w) + size_t(x);
      if (!binary[i]) continue;
      for (int d = 0; d < 4; ++d) {
        const int nx = x + dx[d], ny = y + dy[d];
        if (nx < 0 || nx >= w || ny >= h) continue;
        const size_t j = size_t(ny) * size_t(w) + size_t(nx);
        if (!binary[j] || lab[i] == lab[j]) continue;
        if (++per_dir[size_t(d)] <= keep) out.push_back({{"x", x}, {"y", y}, {"to", name[d]}});
      }
    }
  nlohmann::ordered_json r;
  r["by_direction"] = {
      {"E", per_dir[0]}, {"S", per_dir[1]}, {"SE", per_dir[2]}, {"SW", per_dir[3]}};
  r["first"] = out;
  return r;
}

// NPP's union-find output read as a forest of linear pixel indices (a label that names another
// pixel whose label differs is a parent link), followed on the host to its end (at most 64
// links, so that a cycle cannot hang the check): whether the raw output, flattened, is our
// partition where the compressed one is not.
std::vector<uint32_t> flatten_as_forest(std::vector<uint32_t> lab) {
  const size_t n = lab.size();
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = lab[i];
    for (int step = 0; step < 64 && r < n && lab[r] != r; ++step) r = lab[r];
    lab[i] = r;
  }
  return lab;
}

}  // namespace

int run(int argc, char** argv) {
  std::string images, json_path;
  int reps = 30;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--images" && i + 1 < argc)
      images = argv[++i];
    else if (a == "--json" && i + 1 < argc)
      json_path = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_npp --images DIR [--json PATH] [--reps N]\n");
      return 2;
    }
  }
  if (images.empty() || !std::filesystem::is_directory(images)) {
    std::fprintf(stderr, "bench_npp: no images folder (run bench_ccl --save-images DIR first)\n");
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(images))
    if (e.path().extension() == ".pgm") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  const sweepline::gpu::cuda::Stream stream_owner;
  const cudaStream_t stream = stream_owner.get();
  NppStreamContext ctx = stream_context(stream);
  const sweepline::gpu::cuda::Event e0, e1;
  const cudaEvent_t t0 = e0.get(), t1 = e1.get();
  nlohmann::ordered_json out;
  out["peer"] = "NPP nppiLabelMarkersUF_8u32u_C1R_Ctx (+ nppiCompressMarkerLabelsUF_32u_C1IR_Ctx)";
  std::printf("%-16s %12s %12s %12s %12s  %s\n", "image", "label8 ms", "+compress", "label4 ms",
              "+compress", "partition8");
  for (const auto& f : files) {
    sweepline::Image8 img = sweepline::read_image(f.string());
    const int w = img.width, h = img.height;
    const size_t n = img.size();
    std::vector<uint8_t> binary(n);
    for (size_t i = 0; i < n; ++i) binary[i] = img.pixels[i] ? 255 : 0;
    sweepline::gpu::cuda::DeviceBuffer<Npp8u> src_buf(n);
    sweepline::gpu::cuda::DeviceBuffer<Npp32u> labels_buf(n);
    Npp8u* d_src = src_buf.get();
    Npp32u* d_labels = labels_buf.get();
    SWL_CUDA_CHECK(cudaMemcpy(d_src, binary.data(), n, cudaMemcpyHostToDevice));
    NppiSize roi{w, h};
    int label_buf = 0, compress_buf = 0;
    NPP_BENCH_CHECK(nppiLabelMarkersUFGetBufferSize_32u_C1R(roi, &label_buf));
    NPP_BENCH_CHECK(nppiCompressMarkerLabelsGetBufferSize_32u_C1R(w * h, &compress_buf));
    sweepline::gpu::cuda::DeviceBuffer<Npp8u> scratch(size_t(std::max(label_buf, compress_buf)));
    Npp8u* d_buf = scratch.get();

    auto time_ms = [&](NppiNorm norm, bool compress) {
      std::vector<float> ms;
      for (int r = 0; r < reps + 3; ++r) {
        SWL_CUDA_CHECK(cudaEventRecord(t0, stream));
        NPP_BENCH_CHECK(
            nppiLabelMarkersUF_8u32u_C1R_Ctx(d_src, w, d_labels, w * 4, roi, norm, d_buf, ctx));
        int count = 0;
        if (compress)
          NPP_BENCH_CHECK(nppiCompressMarkerLabelsUF_32u_C1IR_Ctx(d_labels, w * 4, roi, w * h,
                                                                  &count, d_buf, ctx));
        SWL_CUDA_CHECK(cudaEventRecord(t1, stream));
        SWL_CUDA_CHECK(cudaEventSynchronize(t1));
        float t = 0;
        SWL_CUDA_CHECK(cudaEventElapsedTime(&t, t0, t1));
        if (r >= 3) ms.push_back(t);  // the first runs warm up
      }
      std::sort(ms.begin(), ms.end());
      return double(ms[ms.size() / 2]);
    };
    nlohmann::ordered_json rec;
    rec["image"] = f.stem().string();
    rec["npp_label8_ms"] = time_ms(nppiNormInf, false);
    rec["npp_label8_compress_ms"] = time_ms(nppiNormInf, true);
    rec["npp_label4_ms"] = time_ms(nppiNormL1, false);
    rec["npp_label4_compress_ms"] = time_ms(nppiNormL1, true);
    // Partition check against ours (8-connectivity). The union-find output is not flattened
    // (pixels of one region may hold different labels of its tree), so compare after NPP's own
    // compression, which gives every region one final label; the raw output, flattened on the
    // host, is checked too.
    NPP_BENCH_CHECK(
        nppiLabelMarkersUF_8u32u_C1R_Ctx(d_src, w, d_labels, w * 4, roi, nppiNormInf, d_buf, ctx));
    std::vector<uint32_t> raw(n);
    SWL_CUDA_CHECK(cudaMemcpyAsync(raw.data(), d_labels, n * 4, cudaMemcpyDeviceToHost, stream));
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream));
    int compressed = 0;
    NPP_BENCH_CHECK(nppiCompressMarkerLabelsUF_32u_C1IR_Ctx(d_labels, w * 4, roi, w * h,
                                                            &compressed, d_buf, ctx));
    rec["npp_regions8"] = compressed;
    std::vector<uint32_t> npp(n);
    SWL_CUDA_CHECK(cudaMemcpyAsync(npp.data(), d_labels, n * 4, cudaMemcpyDeviceToHost, stream));
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream));
    auto ours_path = f.parent_path() / (f.stem().string() + ".labels8.i32");
    std::string verdict = "not checked";
    if (std::filesystem::exists(ours_path) && std::filesystem::file_size(ours_path) == n * 4) {
      std::vector<int32_t> ours(n);
      std::ifstream(ours_path, std::ios::binary)
          .read(reinterpret_cast<char*>(ours.data()), std::streamsize(n * 4));
      const PartitionCheck c = compare_foreground(npp, ours, binary);
      const PartitionCheck f = compare_foreground(flatten_as_forest(raw), ours, binary);
      rec["npp_partition8_ok"] = c.same();
      rec["npp_partition8"] = {{"refines_ours", c.refines},
                               {"coarsens_ours", c.coarsens},
                               {"npp_foreground_labels", c.npp_labels},
                               {"our_components", c.our_labels},
                               {"raw_flattened_same", f.same()},
                               {"raw_flattened_labels", f.npp_labels}};
      if (!c.same()) rec["npp_unmerged_contacts8"] = unmerged_contacts(npp, binary, w, h, 3);
      verdict = c.same() ? "same" : "DIFFERENT";
      verdict += " (NPP " + std::to_string(c.npp_labels) + " labels, ours " +
                 std::to_string(c.our_labels) + (c.refines ? ", refines" : "") +
                 (c.coarsens ? ", coarsens" : "") +
                 "; raw flattened: " + (f.same() ? "same" : "different") + ", " +
                 std::to_string(f.npp_labels) + ")";
    }
    std::printf("%-16s %12.3f %12.3f %12.3f %12.3f  %s\n", rec["image"].get<std::string>().c_str(),
                rec["npp_label8_ms"].get<double>(), rec["npp_label8_compress_ms"].get<double>(),
                rec["npp_label4_ms"].get<double>(), rec["npp_label4_compress_ms"].get<double>(),
                verdict.c_str());
    out["images"].push_back(rec);
  }
  SWL_CUDA_CHECK(cudaGetLastError());
  if (!json_path.empty()) std::ofstream(json_path) << out.dump(1) << "\n";
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_npp: %s\n", e.what());
    return 1;
  }
}
