// CPU pipeline stages at 4096 x 4096 (Google Benchmark, wall time, the machine's threads):
// the figures set beside the CUDA ones in docs/perf/pipeline.md. bench_pipeline (bench/gpu) also
// times these stages on the GPU machine's CPU.
#include <benchmark/benchmark.h>

#include <vector>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "tests/support/frames.hpp"

namespace {

namespace sg = sweepline::gpu;

struct Fixture {
  sweepline::PolarFrame frame = sweepline::testing::structured_frame(4096, 4096, 60000, 7);
  sg::PipelineParams params;
  sg::ScanSetup setup = sg::make_scan_setup(params, frame);
  sg::ThreadPool pool;
  sweepline::Image8 scan, out;
  std::vector<uint16_t> scratch;
  std::vector<uint8_t> mask;
  Fixture() { sg::cpu::scan_convert(pool, setup, frame.cells.data(), sg::ScanMode::MaxHold, scan); }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

void BM_PipelineScan(benchmark::State& st) {
  Fixture& f = fixture();
  const auto mode = sg::ScanMode(st.range(0));
  sweepline::Image8 img;
  for (auto _ : st) sg::cpu::scan_convert(f.pool, f.setup, f.frame.cells.data(), mode, img);
  st.SetLabel(sg::to_string(mode));
  st.SetBytesProcessed(int64_t(st.iterations()) * 2 * int64_t(f.frame.cells.size()));
}
BENCHMARK(BM_PipelineScan)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PipelineGaussian(benchmark::State& st) {
  Fixture& f = fixture();
  for (auto _ : st) sg::cpu::gaussian(f.pool, f.scan, float(st.range(0)), f.out, f.scratch);
  st.SetBytesProcessed(int64_t(st.iterations()) * 6 * int64_t(f.scan.size()));
}
BENCHMARK(BM_PipelineGaussian)
    ->Arg(1)
    ->Arg(2)
    ->Arg(5)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_PipelineBilateral(benchmark::State& st) {
  Fixture& f = fixture();
  for (auto _ : st) sg::cpu::bilateral(f.pool, f.scan, float(st.range(0)), 30.0f, f.out, f.scratch);
  st.SetBytesProcessed(int64_t(st.iterations()) * 6 * int64_t(f.scan.size()));
}
BENCHMARK(BM_PipelineBilateral)->Arg(2)->Arg(5)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PipelineFftEnhance(benchmark::State& st) {
  Fixture& f = fixture();
  const sg::FftEnhanceParams p;
  for (auto _ : st) sg::cpu::fft_enhance(f.pool, f.scan, p, f.out);
}
BENCHMARK(BM_PipelineFftEnhance)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

void BM_PipelineCfar(benchmark::State& st) {
  Fixture& f = fixture();
  for (auto _ : st) sg::cpu::cfar_polar(f.pool, f.frame, 2, 16, 1e-3, f.mask);
  st.SetBytesProcessed(int64_t(st.iterations()) * 2 * int64_t(f.frame.cells.size()));
}
BENCHMARK(BM_PipelineCfar)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PipelineThreshold(benchmark::State& st) {
  Fixture& f = fixture();
  for (auto _ : st) sg::cpu::threshold(f.pool, f.scan, 64, f.out);
  st.SetBytesProcessed(int64_t(st.iterations()) * 2 * int64_t(f.scan.size()));
}
BENCHMARK(BM_PipelineThreshold)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
