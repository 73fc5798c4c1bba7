#pragma once
// Sweep assembly: decoded CAT240 video messages -> one PolarFrame that always holds the latest
// rotation. The rules (docs/input.md has the user's version):
// - Azimuth. A radial covers the raw azimuths [START_AZ, END_AZ) (LSB 360/2^16 deg; END_AZ <
//   START_AZ wraps over north) and fills every azimuth row that range overlaps. A zero-width
//   radial (START_AZ == END_AZ) covers [START_AZ, next radial's START_AZ), at most
//   max_fill_deg; it is held back until the next radial arrives (or flush()).
// - Range. See range_map.hpp: a cell fills every bin it overlaps, max-hold where several meet.
// - Rotations. Each row remembers the rotation that last wrote it. The first write of a rotation
//   clears the row (so bins beyond the data are empty); later writes in the same rotation (split
//   radials with other START_RG, several narrow radials per row, overlapping edges) max-hold.
//   A rotation ends when the sweep crosses north; rows the finished rotation never wrote are
//   cleared (option) and counted as empty in its statistics.
// Memory: the frame, per-row stamps and small per-geometry tables; the consumer keeps its own
// copy through hand_off() (two frames in all).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/cat240_record.hpp"
#include "app/common/polar_frame.hpp"
#include "app/sweep/range_map.hpp"

namespace sweepline::sweep {

struct SweepConfig {
  int azimuths = 4096;
  int range_bins = 4096;
  // Display range in metres at the far edge of the last bin; 0 = the far edge of the last cell of
  // the first video message (kept fixed afterwards).
  double range_m = 0;
  // A zero-width radial fills up to the next radial's START_AZ but never further than this (a
  // gap from lost messages is not smeared over); beyond it only its own row is filled.
  double max_fill_deg = 5.0;
  // At the end of a rotation, clear the rows it did not write (blanked sectors do not keep
  // stale echoes forever).
  bool clear_missed_rows = true;
  size_t max_rotation_stats = 256;  // finished rotations kept for rotation_stats()
};

struct RotationStats {
  uint64_t index = 0;     // 0-based rotation number
  bool partial = false;   // the first rotation, which began wherever the input started
  double start_time = 0;  // s (I240/140 when present, else capture time); 0 if unknown
  double period_s = 0;    // start of next rotation - start of this one; 0 if unknown
  uint64_t messages = 0;  // video messages
  uint64_t radials = 0;   // distinct radials (split messages of one radial count once)
  int rows_written = 0;   // azimuth rows the rotation wrote
  int rows_empty = 0;     // azimuth rows it left empty (azimuths - rows_written)
};

struct SweepCounters {
  uint64_t video_messages = 0;  // used for assembly
  uint64_t summaries = 0;       // ignored (no video)
  uint64_t radials = 0;
  uint64_t rotations = 0;                    // north crossings
  std::map<std::string, uint64_t> rejected;  // by reason: "no_header", "zero_cell_dur"
};

class SweepAssembler {
 public:
  explicit SweepAssembler(const SweepConfig& config = {});

  // One record; its own cells are used (Record::cells).
  void add(const cat240::Record& rec) { add(rec, rec.cells); }
  // The fast path (Decoder::decode_each): `cells` are the record's 8-bit cells.
  void add(const cat240::Record& rec, std::span<const uint8_t> cells);
  void add(std::span<const cat240::Record> records) {
    for (const auto& r : records) add(r);
  }
  // Commits a held-back zero-width radial (its fill uses the last fill width seen).
  void flush();
  // Forgets everything (frame cleared, rotation counter kept): after a seek.
  void reset();

  const PolarFrame& frame() const { return frame_; }
  // Rows changed since the last hand-off (or take_dirty), then forgets them.
  RowSpan take_dirty();
  // Copies the changed rows into `out` (everything when its geometry differs, then resized) and
  // sets its dirty span, sweep azimuth, rotation and range; forgets the changed rows.
  void hand_off(PolarFrame& out);

  // Finished rotations (oldest first), at most config.max_rotation_stats.
  const std::deque<RotationStats>& rotation_stats() const { return finished_; }
  // The rotation in progress so far.
  const RotationStats& current_rotation() const { return current_; }
  const SweepCounters& counters() const { return counters_; }
  const SweepConfig& config() const { return config_; }

 private:
  struct Key {
    uint16_t start_az = 0, end_az = 0;
    bool operator==(const Key&) const = default;
  };
  const RangeMap& map_for(const RangeGeometry& g);
  void ensure_range(const cat240::Record& rec, const cat240::VideoHeader& h);
  // Writes line_[lo, hi) to the unwrapped rows [first, first + count).
  void commit(int first, int count, int lo, int hi, double t);
  void write_row(int row, uint64_t rotation, int lo, int hi);
  void north_crossed(double t);
  void commit_pending(uint16_t next_start_az, bool have_next, double t);
  void clear_line(int lo, int hi);

  SweepConfig config_;
  PolarFrame frame_;
  bool range_known_ = false;
  std::vector<uint64_t> stamp_;  // per row: rotation that last wrote it (kNever = never)
  std::vector<uint8_t> line_;    // one radial on the range grid, zero outside [line_lo_, line_hi_)
  std::vector<std::unique_ptr<RangeMap>> maps_;  // most recently used first
  // The radial being received.
  bool have_key_ = false;
  Key key_;
  bool pending_ = false;  // a zero-width radial held back in line_
  int line_lo_ = 0, line_hi_ = 0;
  double pending_time_ = 0;
  int last_fill_rows_ = 1;
  // Sweep position.
  bool have_start_ = false;
  int last_start_row_ = 0;  // first row of the last commit, in [0, azimuths)
  uint64_t base_ = 0;       // rotation in which last_start_row_ lies
  uint64_t rotation_ = 0;   // rotation in progress (= rotations completed)
  RowSpan dirty_;
  RotationStats current_;
  std::deque<RotationStats> finished_;
  SweepCounters counters_;
};

}  // namespace sweepline::sweep
