// Input throughput: decode + sweep assembly of uncompressed 8-bit CAT240 on one core, in bytes of
// ASTERIX per second. The input is one rotation encoded by the project's encoder, one record per
// data block as real radars send it; the assembler hands its changed rows to a consumer frame
// every 64 radials (as a display does), so two frames are held in all.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/sweep/sweep_assembler.hpp"

namespace {

using namespace sweepline;

struct Input {
  std::vector<uint8_t> bytes;           // concatenated data blocks
  std::vector<std::size_t> block_ends;  // one block per datagram
};

// `radials` radials of `cells` 8-bit cells, femto header, noise with a few bright returns.
Input make_rotation(int radials, int cells, bool zero_width) {
  std::mt19937 rng(1);
  Input in;
  cat240::EncodeOptions opt;
  opt.res_bits = 8;
  opt.compress = false;
  cat240::Record rec;
  rec.sac = 1;
  rec.sic = 2;
  rec.type = cat240::MessageType::Video;
  rec.cells.resize(std::size_t(cells));
  for (int j = 0; j < radials; ++j) {
    cat240::VideoHeader h;
    h.start_az = uint16_t(std::lround(j * 65536.0 / radials) & 0xFFFF);
    h.end_az =
        zero_width ? h.start_az : uint16_t(std::lround((j + 1) * 65536.0 / radials) & 0xFFFF);
    h.start_rg = 0;
    h.cell_dur = 130666656;
    h.unit = cat240::CellDurUnit::Femto;
    rec.header = h;
    rec.msg_index = uint32_t(j);
    for (auto& c : rec.cells) c = uint8_t(rng() % 40 + (rng() % 50 == 0 ? 200 : 0));
    rec.nb_cells = uint32_t(cells);
    cat240::append_block(std::span<const cat240::Record>(&rec, 1), opt, in.bytes);
    in.block_ends.push_back(in.bytes.size());
  }
  return in;
}

void run(benchmark::State& state, int radials, int cells, bool zero_width, bool assemble) {
  const Input in = make_rotation(radials, cells, zero_width);
  cat240::DecoderOptions dopt;
  dopt.log_errors = false;
  cat240::Decoder dec(dopt);
  sweep::SweepAssembler asm_;  // default 4096 x 4096
  PolarFrame consumer;
  uint64_t sink = 0;
  const cat240::RecordVisitor visit = [&](const cat240::Record& r, std::span<const uint8_t> c,
                                          std::span<const uint8_t>) {
    if (assemble) {
      asm_.add(r, c);
    } else {
      sink += c.size() ? c[c.size() / 2] : 0;
    }
  };
  for (auto _ : state) {
    std::size_t begin = 0;
    for (std::size_t k = 0; k < in.block_ends.size(); ++k) {
      const std::size_t end = in.block_ends[k];
      dec.decode_each(std::span<const uint8_t>(in.bytes.data() + begin, end - begin), 0, visit);
      begin = end;
      if (assemble && k % 64 == 63) asm_.hand_off(consumer);
    }
  }
  benchmark::DoNotOptimize(sink);
  benchmark::DoNotOptimize(consumer.cells.data());
  if (dec.stats().error_count() != 0) state.SkipWithError("decode errors");
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.bytes.size()));
  state.counters["radials/s"] =
      benchmark::Counter(double(state.iterations()) * radials, benchmark::Counter::kIsRate);
}

// 4096 radials x 4096 cells onto the default 4096 x 4096 frame (one cell per bin).
void BM_DecodeAssemble_4096x4096(benchmark::State& s) {
  run(s, 4096, 4096, false, true);
}
// A naval radar's pattern: 2000 zero-width radials x 1024 cells, each cell over 4 bins.
void BM_DecodeAssemble_2000x1024_ZeroWidth(benchmark::State& s) {
  run(s, 2000, 1024, true, true);
}
// Decode alone, for comparison.
void BM_DecodeOnly_4096x4096(benchmark::State& s) {
  run(s, 4096, 4096, false, false);
}

BENCHMARK(BM_DecodeAssemble_4096x4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeAssemble_2000x1024_ZeroWidth)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeOnly_4096x4096)->Unit(benchmark::kMillisecond);

}  // namespace
