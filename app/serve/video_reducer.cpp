#include "app/serve/video_reducer.hpp"

#include <algorithm>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/common/check.hpp"

namespace sweepline::serve {

namespace {

// A block's LEN field is 16 bits.
constexpr size_t kMaxBlockOctets = 65535;

bool same_segment(const cat240::Record& a, const cat240::Record& b) {
  return a.header && b.header && a.header->start_rg == b.header->start_rg &&
         a.header->cell_dur == b.header->cell_dur && a.header->unit == b.header->unit;
}

// The cells as 8-bit intensities, from the wire octets when a source kept only those.
void ensure_cells(cat240::Record& r) {
  if (!r.cells.empty() || r.raw_video.empty()) return;
  const uint64_t need = cat240::octets_for_cells(r.nb_cells, r.res_bits);
  if (r.nb_cells == 0 || need > r.raw_video.size()) return;
  cat240::unpack_cells(r.raw_video, r.res_bits, r.nb_cells, r.cells);
}

}  // namespace

void check_reduction(const VideoReduction& r) {
  SWL_CHECK(r.range_decimation >= 1 && r.range_decimation <= kMaxRangeDecimation,
            "video range decimation must be 1.." + std::to_string(kMaxRangeDecimation) + ", not " +
                std::to_string(r.range_decimation));
  SWL_CHECK(r.azimuth_decimation >= 1 && r.azimuth_decimation <= kMaxAzimuthDecimation,
            "video azimuth decimation must be 1.." + std::to_string(kMaxAzimuthDecimation) +
                ", not " + std::to_string(r.azimuth_decimation));
  SWL_CHECK(
      r.res_bits == 0 || r.res_bits == 1 || r.res_bits == 2 || r.res_bits == 4 || r.res_bits == 8,
      "video bits per cell must be 0 (as received), 1, 2, 4 or 8, not " +
          std::to_string(r.res_bits));
}

std::string describe(const VideoReduction& r) {
  if (!r.reduces()) return "full";
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (r.range_decimation > 1) add("range/" + std::to_string(r.range_decimation));
  if (r.azimuth_decimation > 1) add("azimuth/" + std::to_string(r.azimuth_decimation));
  if (r.res_bits) add(std::to_string(r.res_bits) + "-bit");
  if (r.compress) add("zlib");
  return s;
}

VideoReducer::VideoReducer(const VideoReduction& reduction) : reduction_(reduction) {
  check_reduction(reduction_);
}

void VideoReducer::reduce_range(cat240::Record& r) const {
  const int n = reduction_.range_decimation;
  if (n <= 1 || !r.header) return;
  ensure_cells(r);
  const size_t in = r.cells.size();
  const size_t out = (in + size_t(n) - 1) / size_t(n);
  for (size_t i = 0; i < out; ++i) {
    uint8_t m = 0;
    const size_t end = std::min(in, (i + 1) * size_t(n));
    for (size_t k = i * size_t(n); k < end; ++k) m = std::max(m, r.cells[k]);
    r.cells[i] = m;
  }
  r.cells.resize(out);
  r.nb_cells = uint32_t(out);
  r.raw_video.clear();
  // The reduced cell spans N of the original; its first cell starts where the original's did
  // (to within one original cell when START_RG is not a multiple of N).
  r.header->start_rg /= uint32_t(n);
  const uint64_t dur = uint64_t(r.header->cell_dur) * uint64_t(n);
  SWL_CHECK(dur <= 0xFFFFFFFFu, "video range decimation: the reduced cell duration overflows");
  r.header->cell_dur = uint32_t(dur);
}

void VideoReducer::merge(cat240::Record&& r) {
  // A new rotation (the azimuth falls back) or an unusual order: what is held goes out first.
  for (const Held& h : held_)
    if (same_segment(h.record, r) && r.header->start_az < h.record.header->start_az) {
      release_held();
      break;
    }
  auto it = std::find_if(held_.begin(), held_.end(),
                         [&](const Held& h) { return same_segment(h.record, r); });
  if (it == held_.end()) {
    held_.push_back(Held{std::move(r), 1});
    it = held_.end() - 1;
  } else {
    cat240::Record& m = it->record;
    if (m.cells.size() < r.cells.size()) m.cells.resize(r.cells.size(), 0);
    for (size_t i = 0; i < r.cells.size(); ++i) m.cells[i] = std::max(m.cells[i], r.cells[i]);
    m.nb_cells = uint32_t(m.cells.size());
    m.header->end_az = r.header->end_az;
    ++it->count;
  }
  if (it->count >= reduction_.azimuth_decimation) {
    take(std::move(it->record));
    held_.erase(it);
  }
}

void VideoReducer::release_held() {
  for (Held& h : held_) take(std::move(h.record));
  held_.clear();
}

void VideoReducer::take(cat240::Record&& r) {
  if (r.type == cat240::MessageType::Video) r.msg_index = next_index_++;
  ready_.push_back(std::move(r));
}

void VideoReducer::push(std::span<const cat240::Record> records, const DatagramSink& emit) {
  for (const cat240::Record& in : records) {
    ++records_in_;
    cat240::Record r = in;
    r.capture_time = 0;
    if (r.type != cat240::MessageType::Video || !r.header) {
      take(std::move(r));
      continue;
    }
    const bool new_bits = reduction_.res_bits != 0 && reduction_.res_bits != r.res_bits;
    if (new_bits || reduction_.azimuth_decimation > 1) {
      ensure_cells(r);
      r.raw_video.clear();  // the cells are what is sent from here on
    }
    reduce_range(r);
    if (reduction_.azimuth_decimation > 1) {
      merge(std::move(r));
    } else {
      take(std::move(r));
    }
  }
  send(emit);
}

void VideoReducer::flush(const DatagramSink& emit) {
  release_held();
  send(emit);
}

void VideoReducer::send(const DatagramSink& emit) {
  cat240::EncodeOptions opt;
  if (reduction_.res_bits) opt.res_bits = reduction_.res_bits;
  if (reduction_.compress) opt.compress = true;
  opt.deflater = &deflater_;
  auto finish = [&] {
    if (block_.size() <= 3) return;
    const size_t len = block_.size();
    block_[1] = uint8_t(len >> 8);
    block_[2] = uint8_t(len);
    emit(std::move(block_));
    block_.clear();
  };
  std::vector<cat240::Record> batch;
  batch.swap(ready_);
  for (const cat240::Record& r : batch) {
    scratch_.clear();
    cat240::append_record(r, opt, scratch_);
    SWL_CHECK(scratch_.size() + 3 <= kMaxBlockOctets,
              "video record of " + std::to_string(scratch_.size()) +
                  " octets does not fit a CAT240 data block: reduce it (range decimation, bits)");
    if (block_.size() > 3 && block_.size() + scratch_.size() > kPackedDatagramMax) finish();
    if (block_.empty()) block_ = {cat240::kCategory, 0, 0};
    block_.insert(block_.end(), scratch_.begin(), scratch_.end());
    ++records_out_;
  }
  finish();
}

}  // namespace sweepline::serve
