#include "app/sweep/sweep_assembler.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "app/common/check.hpp"
#include "app/sweep/max_into.hpp"
#include "app/sweep/row_span.hpp"

namespace sweepline::sweep {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr int64_t kAzCircle = 65536;
constexpr size_t kMaxMaps = 16;  // split radials use a few START_RG values in turn

// First row that the raw azimuth `az` (may be >= 2^16 when unwrapped) lies in.
int64_t row_floor(int64_t az, int rows) {
  return az * rows / kAzCircle;
}
int64_t row_ceil(int64_t az, int rows) {
  return (az * rows + kAzCircle - 1) / kAzCircle;
}
double az_deg(uint16_t az) {
  return double(az) * 360.0 / double(kAzCircle);
}
}  // namespace

SweepAssembler::SweepAssembler(const SweepConfig& config) : config_(config) {
  SWL_CHECK(config_.azimuths > 0 && config_.azimuths <= 65536,
            "sweep: azimuth bins must be 1..65536");
  SWL_CHECK(config_.range_bins > 0 && config_.range_bins <= 65536,
            "sweep: range bins must be 1..65536");
  SWL_CHECK(config_.range_m >= 0 && std::isfinite(config_.range_m),
            "sweep: the display range must be >= 0 (0 = from the data)");
  frame_ = PolarFrame(config_.azimuths, config_.range_bins, config_.range_m);
  range_known_ = config_.range_m > 0;
  stamp_.assign(size_t(config_.azimuths), kNever);
  line_.assign(size_t(config_.range_bins), 0);
  dirty_ = {0, config_.azimuths};
  current_.partial = true;
}

void SweepAssembler::reset() {
  std::fill(frame_.cells.begin(), frame_.cells.end(), uint8_t(0));
  std::fill(stamp_.begin(), stamp_.end(), kNever);
  std::fill(line_.begin(), line_.end(), uint8_t(0));
  have_key_ = pending_ = have_start_ = false;
  base_ = rotation_;
  line_lo_ = line_hi_ = 0;
  dirty_ = {0, config_.azimuths};
  current_ = RotationStats{};
  current_.index = rotation_;
  current_.partial = true;
}

const RangeMap& SweepAssembler::map_for(const RangeGeometry& g) {
  for (size_t i = 0; i < maps_.size(); ++i) {
    if (maps_[i]->geometry() == g) {
      if (i != 0) std::rotate(maps_.begin(), maps_.begin() + long(i), maps_.begin() + long(i) + 1);
      return *maps_.front();
    }
  }
  if (maps_.size() >= kMaxMaps) maps_.pop_back();
  maps_.insert(maps_.begin(), std::make_unique<RangeMap>(g, frame_.range_bins, frame_.range_m));
  return *maps_.front();
}

void SweepAssembler::clear_line(int lo, int hi) {
  if (hi > lo) std::memset(line_.data() + lo, 0, size_t(hi - lo));
}

void SweepAssembler::add(const cat240::Record& rec, std::span<const uint8_t> cells) {
  if (rec.type == cat240::MessageType::Summary) {
    ++counters_.summaries;
    return;
  }
  if (!rec.header) {
    ++counters_.rejected["no_header"];
    return;
  }
  const cat240::VideoHeader& h = *rec.header;
  if (h.cell_dur == 0) {
    ++counters_.rejected["zero_cell_dur"];
    return;
  }
  if (!range_known_) {
    const double far =
        (double(h.start_rg) + double(cells.size())) * cell_length_m(h.cell_dur, h.unit);
    if (!(far > 0)) {
      ++counters_.rejected["range_unknown"];
      return;
    }
    frame_.range_m = far;
    range_known_ = true;
  }
  const double t = rec.tod ? double(*rec.tod) / 128.0 : rec.capture_time;
  const Key k{h.start_az, h.end_az};
  const bool new_radial = !(have_key_ && k == key_);
  if (new_radial) {
    if (pending_) commit_pending(k.start_az, true, t);
    key_ = k;
    have_key_ = true;
  }
  const RangeMap& map = map_for({h.start_rg, uint32_t(cells.size()), h.cell_dur, h.unit});
  const int lo = map.first_bin(), hi = map.end_bin();
  if (h.start_az == h.end_az) {
    // Zero-width: its extent is known only when the next radial starts.
    if (!pending_) {
      pending_ = true;
      pending_time_ = t;
      line_lo_ = line_hi_ = 0;
    }
    // The line is zero outside [line_lo_, line_hi_): a fresh line can be stored, not merged.
    if (line_hi_ <= line_lo_) {
      map.apply_store(cells, line_.data());
    } else {
      map.apply_max(cells, line_.data());
    }
    if (hi > lo) {
      if (line_hi_ <= line_lo_) {
        line_lo_ = lo;
        line_hi_ = hi;
      } else {
        line_lo_ = std::min(line_lo_, lo);
        line_hi_ = std::max(line_hi_, hi);
      }
    }
    frame_.sweep_azimuth_deg = az_deg(h.start_az);
  } else {
    map.apply_store(cells, line_.data());
    const int64_t s = h.start_az;
    const int64_t e = h.end_az > h.start_az ? int64_t(h.end_az) : int64_t(h.end_az) + kAzCircle;
    const int64_t first = row_floor(s, config_.azimuths);
    const int64_t end = row_ceil(e, config_.azimuths);
    commit(int(first), int(std::max<int64_t>(1, end - first)), lo, hi, t);
    clear_line(lo, hi);
    frame_.sweep_azimuth_deg = az_deg(h.end_az);
  }
  ++counters_.video_messages;
  ++current_.messages;
  if (new_radial) {
    ++counters_.radials;
    ++current_.radials;
  }
}

void SweepAssembler::commit_pending(uint16_t next_start_az, bool have_next, double t) {
  const int rows = config_.azimuths;
  const int64_t s = key_.start_az;
  const int64_t first = row_floor(s, rows);
  int64_t count = last_fill_rows_;
  if (have_next) {
    const int64_t d = (int64_t(next_start_az) - s + kAzCircle) % kAzCircle;
    const double cap = config_.max_fill_deg * double(kAzCircle) / 360.0;
    if (d == 0 || double(d) > cap) {
      count = 1;
    } else {
      count = std::max<int64_t>(1, row_ceil(s + d, rows) - first);
      last_fill_rows_ = int(count);
    }
  }
  pending_ = false;
  commit(int(first), int(count), line_lo_, line_hi_, have_next ? t : pending_time_);
  clear_line(line_lo_, line_hi_);
  line_lo_ = line_hi_ = 0;
}

void SweepAssembler::flush() {
  if (pending_) commit_pending(0, false, 0);
}

void SweepAssembler::commit(int first, int count, int lo, int hi, double t) {
  const int rows = config_.azimuths;
  count = std::min(count, rows);
  // Rows are placed on an unwrapped axis (rotation * rows + row) so that each write knows which
  // rotation it belongs to. A radial starting more than half a circle before the previous one
  // has crossed north; more than half a circle after it is a late radial of the rotation before.
  if (have_start_) {
    if (first < last_start_row_ - rows / 2) {
      ++base_;
    } else if (first > last_start_row_ + rows / 2 && base_ > 0) {
      --base_;
    }
  }
  have_start_ = true;
  last_start_row_ = first;
  for (int k = 0; k < count; ++k) {
    const uint64_t unwrapped = base_ * uint64_t(rows) + uint64_t(first + k);
    const uint64_t rot = unwrapped / uint64_t(rows);
    while (rot > rotation_) north_crossed(t);
    const int r = int(unwrapped % uint64_t(rows));
    write_row(r, rot, lo, hi);
    if (frame_.row_time_s.size() != size_t(rows)) frame_.row_time_s.assign(size_t(rows), 0.0);
    frame_.row_time_s[size_t(r)] = t;
  }
  dirty_ = merge_rows(dirty_, first % rows, count, rows);
}

void SweepAssembler::write_row(int r, uint64_t rot, int lo, int hi) {
  uint8_t* row = frame_.row(r);
  const uint8_t* line = line_.data();
  if (stamp_[size_t(r)] != rot) {
    // First write of this rotation: the row shows this radial only.
    const size_t bins = size_t(frame_.range_bins);
    if (hi <= lo) {
      std::memset(row, 0, bins);
    } else {
      std::memset(row, 0, size_t(lo));
      std::memcpy(row + lo, line + lo, size_t(hi - lo));
      std::memset(row + hi, 0, bins - size_t(hi));
    }
    stamp_[size_t(r)] = rot;
    if (rot == rotation_) ++current_.rows_written;
    return;
  }
  if (hi > lo) max_into(row + lo, line + lo, size_t(hi - lo));
}

void SweepAssembler::north_crossed(double t) {
  const int rows = config_.azimuths;
  current_.rows_empty = rows - current_.rows_written;
  if (config_.clear_missed_rows) {
    for (int r = 0; r < rows; ++r) {
      if (stamp_[size_t(r)] != rotation_ && stamp_[size_t(r)] != kNever) {
        std::memset(frame_.row(r), 0, size_t(frame_.range_bins));
        stamp_[size_t(r)] = kNever;
        dirty_ = merge_rows(dirty_, r, 1, rows);
      }
    }
  }
  if (!current_.partial && current_.start_time != 0 && t != 0) {
    double p = t - current_.start_time;
    if (p < 0) p += 86400.0;  // Time of Day wraps at midnight
    current_.period_s = p;
  }
  finished_.push_back(current_);
  while (finished_.size() > std::max<size_t>(1, config_.max_rotation_stats)) finished_.pop_front();
  ++rotation_;
  ++counters_.rotations;
  frame_.rotation = rotation_;
  current_ = RotationStats{};
  current_.index = rotation_;
  current_.start_time = t;
}

RowSpan SweepAssembler::take_dirty() {
  const RowSpan d = dirty_;
  dirty_ = {};
  return d;
}

void SweepAssembler::hand_off(PolarFrame& out) {
  RowSpan d = take_dirty();
  if (out.azimuths != frame_.azimuths || out.range_bins != frame_.range_bins ||
      out.cells.size() != frame_.cells.size()) {
    out = PolarFrame(frame_.azimuths, frame_.range_bins, frame_.range_m);
    d = {0, frame_.azimuths};
  }
  const size_t bins = size_t(frame_.range_bins);
  for (int k = 0; k < d.count; ++k) {
    const int r = (d.first + k) % frame_.azimuths;
    std::memcpy(out.row(r), frame_.row(r), bins);
  }
  if (frame_.row_time_s.size() == size_t(frame_.azimuths)) {
    if (out.row_time_s.size() != frame_.row_time_s.size()) {
      out.row_time_s = frame_.row_time_s;
    } else {
      for (int k = 0; k < d.count; ++k) {
        const size_t r = size_t((d.first + k) % frame_.azimuths);
        out.row_time_s[r] = frame_.row_time_s[r];
      }
    }
  }
  out.dirty = d;
  out.range_m = frame_.range_m;
  out.sweep_azimuth_deg = frame_.sweep_azimuth_deg;
  out.rotation = frame_.rotation;
}

}  // namespace sweepline::sweep
