// Simulator generation speed: one 4096 x 4096 rotation must take <= 250 ms on one core (10x real
// time at 24 rpm). Figures go to docs/perf/simulator.md.
#include <benchmark/benchmark.h>

#include <vector>

#include "app/sim/radial_producer.hpp"
#include "app/sim/scene.hpp"

namespace {

using namespace sweepline::sim;

// Renders whole rotations of a scenario (scene moves on between iterations, as in a real run).
void render_rotation(benchmark::State& state, const char* name) {
  Scenario s = make_scenario(name);
  Scene scene(s);
  std::vector<uint8_t> frame;
  for (auto _ : state) {
    scene.render_rotation(frame);
    benchmark::DoNotOptimize(frame.data());
    scene.next_rotation();
  }
  const double cells = double(s.radar.radials) * s.radar.cells;
  state.counters["cells/s"] =
      benchmark::Counter(cells, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["x_realtime"] =
      benchmark::Counter(s.radar.period_s(), benchmark::Counter::kIsIterationInvariantRate);
}

// Rendering plus cutting into records and encoding to UDP payloads (what `sweepline sim` does
// per rotation, without the file writes).
void render_and_encode(benchmark::State& state, const char* name) {
  Scenario s = make_scenario(name);
  Scene scene(s);
  RadialProducer producer(s);
  std::vector<uint8_t> rows(size_t(64) * size_t(s.radar.cells));
  std::vector<sweepline::cat240::Record> records;
  std::vector<Packet> packets;
  for (auto _ : state) {
    for (int first = 0; first < s.radar.radials; first += 64) {
      scene.render(first, 64, rows.data());
      records.clear();
      packets.clear();
      for (int i = 0; i < 64; ++i)
        producer.radial(first + i, rows.data() + size_t(i) * size_t(s.radar.cells), 0, records);
      producer.pack(records, packets);
      benchmark::DoNotOptimize(packets.data());
    }
    scene.next_rotation();
  }
  state.counters["x_realtime"] =
      benchmark::Counter(s.radar.period_s(), benchmark::Counter::kIsIterationInvariantRate);
}

void scene_setup(benchmark::State& state, const char* name) {
  Scenario s = make_scenario(name);
  for (auto _ : state) {
    Scene scene(s);
    benchmark::DoNotOptimize(&scene);
  }
}

}  // namespace

BENCHMARK_CAPTURE(render_rotation, harbour, "harbour")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(render_rotation, vessels50, "vessels50")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(render_rotation, vessels1869, "vessels1869")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(render_rotation, open_sea, "open-sea")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(render_rotation, stress, "stress")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(render_and_encode, harbour, "harbour")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(scene_setup, harbour, "harbour")->Unit(benchmark::kMillisecond);
