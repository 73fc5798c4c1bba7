#pragma once
// Replay of a capture file (raw ASTERIX, pcap, pcapng, FINAL) as a RecordSource with
// ReplayControl. Opening reads the file once to build a rotation index (the datagram where each
// antenna rotation starts; a rotation starts where a video radial's START_AZ falls more than half
// a circle below the previous one), so rotation_count() is known and seek_rotation(n) re-reads
// from the file start to that datagram without decoding.
//
// Pacing: each datagram has a media time, from (Pacing::Auto picks the first available)
//  - the capture time (pcap, pcapng, FINAL),
//  - I240/140 Time of Day of its first record (unwrapped over midnight), or
//  - a configured rotation period: rotation index + START_AZ / 2^16, times the period.
// A datagram is delivered once media time <= anchor + (clock - clock anchor) * speed. Pause,
// speed changes, seeks and loops re-anchor, as do silences in the file longer than max_gap_s.
// Not thread-safe: call poll() and the controls from one thread.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/net/msg_index_tracker.hpp"
#include "app/replay/replay_clock.hpp"
#include "app/source/source.hpp"

namespace sweepline::replay {

enum class Pacing { Auto, CaptureTime, TimeOfDay, RotationRate };
const char* to_string(Pacing p);

struct ReplayOptions {
  double speed = 1.0;  // 0 = unpaced; otherwise clamped to 0.1 .. 100
  bool loop = true;
  Pacing pacing = Pacing::Auto;
  double rotation_period_s = 4.0;  // Pacing::RotationRate (and Auto when the file has no times)
  capture::CaptureFilter filter;
  std::size_t max_datagrams_per_poll = 4096;  // bounds one poll() when unpaced or catching up
  double max_gap_s = 10.0;                    // longer silences in the file are skipped
  std::shared_ptr<Clock> clock;               // null: the steady clock
  std::string uri;                            // for status()
};

inline constexpr double kMinSpeed = 0.1;
inline constexpr double kMaxSpeed = 100.0;

class ReplaySource : public RecordSource, public ReplayControl {
 public:
  // Throws sweepline::Error when the file cannot be opened or holds no CAT240 datagram.
  ReplaySource(const std::string& path, const ReplayOptions& options);

  bool poll(std::vector<cat240::Record>& out) override;
  SourceStatus status() const override;
  ReplayControl* replay() override { return this; }

  void set_paused(bool paused) override;
  bool paused() const override { return paused_; }
  void set_speed(double factor) override;
  double speed() const override { return speed_; }
  void step_rotation() override;
  void seek_rotation(uint64_t n) override;
  uint64_t rotation_count() const override { return rotation_starts_.size(); }
  void set_loop(bool loop) override { loop_ = loop; }
  bool loop() const override { return loop_; }

  Pacing pacing() const { return pacing_; }  // the mode in use (Auto resolved)
  // The rotation (file index) of the next datagram to deliver.
  uint64_t position_rotation() const;
  uint64_t datagram_count() const { return datagram_count_; }

 private:
  bool fetch_next();  // reads and decodes the next datagram into next_*; false at the end
  double media_time(const capture::Datagram& d, const std::vector<cat240::Record>& recs);
  uint64_t rotation_of(uint64_t ordinal) const;
  void anchor();
  void rewind_to(uint64_t ordinal);
  void deliver(std::vector<cat240::Record>& out);

  ReplayOptions options_;
  std::unique_ptr<capture::CaptureReader> reader_;
  cat240::Decoder decoder_;
  net::MsgIndexTracker tracker_;
  std::vector<uint64_t> rotation_starts_;  // datagram ordinals
  uint64_t datagram_count_ = 0;
  Pacing pacing_ = Pacing::Auto;
  double speed_ = 1.0;
  bool loop_ = true;
  bool paused_ = false;
  bool ended_ = false;
  bool stepping_ = false;
  uint64_t step_target_ = 0;
  // The next datagram, read ahead and decoded.
  bool have_next_ = false;
  bool have_delivered_ = false;
  bool need_anchor_ = true;
  uint64_t read_pos_ = 0;      // datagrams read since the last rewind
  uint64_t next_ordinal_ = 0;  // ordinal of next_ (0-based among CAT240 datagrams)
  capture::Datagram next_;
  std::vector<cat240::Record> next_records_;
  double next_media_ = 0;
  // Media time state.
  double last_media_ = 0;
  double tod_day_ = 0;
  double last_tod_ = -1;
  double wall_anchor_ = 0, media_anchor_ = 0;
  // Counters.
  uint64_t skipped_base_ = 0;
  uint64_t datagrams_ = 0, records_ = 0, bytes_ = 0, discontinuities_ = 0;
  double rate_t0_ = 0;
  uint64_t rate_bytes0_ = 0;
  double bytes_per_s_ = 0;
};

}  // namespace sweepline::replay
