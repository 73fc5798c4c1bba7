// Hole filling (paper 003, Kizuna and Sato, after Shibata), the product's, for every labeller:
// foreground and background labelled together by propagation (neighbours join when their binary
// values are equal), then the paper's consecutive relabel table (Alg. 4: racing threads, one
// representative per label takes the next number), the background components' areas and
// whether they touch the border, and the mask with the holes on.
//
// The propagation: every pixel takes the minimum label of its neighbours of the same value, jumps
// pointers (g = L[L[L[g]]]), and lowers both its old label's entry and its own with atomicMin;
// passes repeat until a pass changes nothing. The loop runs on the device: one cooperative
// kernel, a grid-wide barrier between passes and a rotating device-side change flag, so the host
// never waits. Labels end as the minimum raster index. The reference `propagate` labeller
// (gpu/reference) runs the same loop on the foreground alone.
#include <cooperative_groups.h>

#include <algorithm>

#include "gpu/cuda/ccl_device.cuh"

namespace cg = cooperative_groups;

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

__global__ void prop_init(const uint8_t* __restrict__ img, uint8_t thr, int64_t n, bool both,
                          int32_t* uf) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) uf[i] = (both || img[i] > thr) ? int32_t(i) : -1;
}

__global__ void prop_loop(const uint8_t* __restrict__ img, uint8_t thr, int w, int h, int conn_fg,
                          int conn_bg, bool both, int32_t* uf, int32_t* flags) {
  cg::grid_group grid = cg::this_grid();
  const int64_t n = int64_t(w) * h;
  for (int it = 0;; ++it) {
    if (grid.thread_rank() == 0) flags[(it + 1) % 3] = 0;
    bool changed = false;
    for (int64_t i = grid.thread_rank(); i < n; i += grid.size()) {
      bool c = img[i] > thr;
      if (!c && !both) continue;
      const int conn = c ? conn_fg : conn_bg;
      const int x = int(i % w), y = int(i / w);
      const int32_t o = __ldcg(uf + i);
      int32_t g = o;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx;
          if ((dx == 0 && dy == 0) || xx < 0 || xx >= w) continue;
          if (conn == 4 && dx != 0 && dy != 0) continue;
          int64_t q = int64_t(yy) * w + xx;
          if ((img[q] > thr) != c) continue;
          g = min(g, __ldcg(uf + q));
        }
      }
      g = __ldcg(uf + g);
      g = __ldcg(uf + g);
      g = __ldcg(uf + g);
      if (g < o) {
        atomicMin(uf + o, g);
        atomicMin(uf + i, g);
        changed = true;
      }
    }
    if (changed) flags[it % 3] = 1;
    grid.sync();
    if (*(volatile int32_t*)(flags + it % 3) == 0) break;
  }
}

// Paper 003 Alg. 4: every pixel races for its label's table entry; the winner numbers it.
__global__ void relabel_table(const int32_t* uf, int64_t n, int32_t* table, int32_t* counter) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t l = uf[i];
  if (atomicCAS(table + l, 0, -1) == 0) table[l] = atomicAdd(counter, 1) + 1;
}

// Background area per dense label, bit 31 = touches the border.
__global__ void hole_areas(const uint8_t* __restrict__ img, uint8_t thr, int w, int h,
                           const int32_t* uf, const int32_t* table, uint32_t* area) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(w) * h || img[i] > thr) return;
  int x = int(i % w), y = int(i / w);
  int32_t d = table[uf[i]];
  atomicAdd(area + d, 1u);
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) atomicOr(area + d, 0x80000000u);
}

__global__ void hole_fill(const uint8_t* __restrict__ img, uint8_t thr, int64_t n,
                          const int32_t* uf, const int32_t* table, const uint32_t* area,
                          int64_t hole_max, uint8_t* mask) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t on = img[i] > thr;
  if (!on) {
    uint32_t a = area[table[uf[i]]];
    bool border = a >> 31;
    int64_t size = a & 0x7fffffffu;
    on = !border && (hole_max <= 0 || size < hole_max);
  }
  mask[i] = on;
}

// The blocks of prop_loop that stay resident together (a cooperative launch needs them all),
// once per process (one device).
int cooperative_grid(int threads) {
  static const int grid = [threads] {
    int per_sm = 0;
    SWL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, prop_loop, threads, 0));
    SWL_CHECK(per_sm > 0, "propagation: the cooperative kernel cannot be resident");
    return device_sm_count() * per_sm;
  }();
  return grid;
}

}  // namespace

void run_propagation(const uint8_t* img, uint8_t thr, int w, int h, int conn_fg, int conn_bg,
                     bool both, int32_t* uf, int32_t* flags, cudaStream_t stream) {
  constexpr int kThreads = 256;
  int64_t n = int64_t(w) * h;
  prop_init<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(img, thr, n, both, uf);
  SWL_CUDA_CHECK_LAUNCH();
  SWL_CUDA_CHECK(cudaMemsetAsync(flags, 0, 3 * sizeof(int32_t), stream));
  int grid = int(std::min<int64_t>(cooperative_grid(kThreads), blocks_for(n, kThreads)));
  void* args[] = {&img, &thr, &w, &h, &conn_fg, &conn_bg, &both, &uf, &flags};
  SWL_CUDA_CHECK(cudaLaunchCooperativeKernel((const void*)prop_loop, dim3(grid), dim3(kThreads),
                                             args, 0, stream));
}

const uint8_t* fill_holes(const Workspace& ws, const uint8_t* d_image, uint8_t threshold,
                          int connectivity, int64_t hole_max_area, cudaStream_t stream) {
  const int conn_bg = connectivity == 8 ? 4 : 8;
  run_propagation(d_image, threshold, ws.w, ws.h, connectivity, conn_bg, true, ws.uf, ws.flags,
                  stream);
  // The table lives in the (not yet used) label image, the areas and the mask in the blob.
  int32_t* table = ws.labels;
  auto* area = reinterpret_cast<uint32_t*>(ws.blob);
  uint8_t* mask = ws.blob + (size_t(ws.n) + 4) * 4;  // after area[0..n]
  SWL_CUDA_CHECK(cudaMemsetAsync(table, 0, size_t(ws.n) * 4, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(ws.count + 3, 0, 4, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(area, 0, (size_t(ws.n) + 1) * 4, stream));
  constexpr int kThreads = 256;
  int grid = blocks_for(ws.n, kThreads);
  relabel_table<<<grid, kThreads, 0, stream>>>(ws.uf, ws.n, table, ws.count + 3);
  SWL_CUDA_CHECK_LAUNCH();
  hole_areas<<<grid, kThreads, 0, stream>>>(d_image, threshold, ws.w, ws.h, ws.uf, table, area);
  SWL_CUDA_CHECK_LAUNCH();
  hole_fill<<<grid, kThreads, 0, stream>>>(d_image, threshold, ws.n, ws.uf, table, area,
                                           hole_max_area, mask);
  SWL_CUDA_CHECK_LAUNCH();
  return mask;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
