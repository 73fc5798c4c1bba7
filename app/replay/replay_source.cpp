#include "app/replay/replay_source.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <cmath>

#include "app/common/check.hpp"
#include "app/common/name_table.hpp"

namespace sweepline::replay {

constexpr NameTable<Pacing, 4> kPacingNames{{{Pacing::Auto, "auto"},
                                             {Pacing::CaptureTime, "capture time"},
                                             {Pacing::TimeOfDay, "time of day"},
                                             {Pacing::RotationRate, "rotation rate"}}};

const char* to_string(Pacing p) {
  return name_of(kPacingNames, p);
}

namespace {
cat240::DecoderOptions quiet_index_options() {
  cat240::DecoderOptions o;
  o.decode_cells = false;
  o.keep_raw_video = false;
  o.log_errors = false;  // the replay pass logs them
  return o;
}
}  // namespace

ReplaySource::ReplaySource(const std::string& path, const ReplayOptions& options)
    : options_(options), loop_(options.loop) {
  if (!options_.clock) options_.clock = std::make_shared<SteadyClock>();
  SWL_CHECK(options_.rotation_period_s > 0, "replay: the rotation period must be positive");
  SWL_CHECK(options_.max_datagrams_per_poll > 0, "replay: max_datagrams_per_poll must be > 0");
  if (options_.uri.empty()) options_.uri = path;
  // Indexing, seeking and looping read the capture more than once: a pipe is copied first.
  reader_ = capture::open_capture_rewindable(path, options_.filter);

  // Index pass: where each rotation starts, and which times the file carries.
  cat240::Decoder index_decoder(quiet_index_options());
  bool have_capture_time = false, have_tod = false;
  int last_az = -1;
  capture::Datagram d;
  uint64_t k = 0;
  while (reader_->next(d)) {
    bool starts_rotation = false;
    index_decoder.decode_each(
        d.payload, d.time,
        [&](const cat240::Record& r, std::span<const uint8_t>, std::span<const uint8_t>) {
          if (r.tod) have_tod = true;
          if (r.type != cat240::MessageType::Video || !r.header) return;
          const int az = r.header->start_az;
          if (last_az >= 0 && az < last_az - 32768) starts_rotation = true;
          last_az = az;
        });
    if (d.time != 0) have_capture_time = true;
    if (k == 0 || starts_rotation) rotation_starts_.push_back(k);
    ++k;
  }
  datagram_count_ = k;
  {
    const capture::CaptureStats& cs = reader_->stats();  // the index pass counted these once
    skipped_base_ = cs.non_cat240;
    for (const auto& [key, v] : cs.skipped) skipped_base_ += key == "not_cat240" ? 0 : v;
  }
  SWL_CHECK(k > 0, "replay: " + path + " holds no CAT240 datagram" +
                       (options_.filter.port || !options_.filter.group.empty()
                            ? " that passes the port/group filter"
                            : ""));
  pacing_ = options_.pacing;
  if (pacing_ == Pacing::Auto) {
    pacing_ = have_capture_time ? Pacing::CaptureTime
              : have_tod        ? Pacing::TimeOfDay
                                : Pacing::RotationRate;
  }
  SWL_CHECK(pacing_ != Pacing::CaptureTime || have_capture_time,
            "replay: " + path + " has no capture times to pace by");
  SWL_CHECK(pacing_ != Pacing::TimeOfDay || have_tod,
            "replay: " + path + " has no Time of Day (I240/140) to pace by");
  spdlog::info("replay {}: {} datagrams, {} rotations, paced by {}", path, datagram_count_,
               rotation_starts_.size(), to_string(pacing_));
  set_speed(options_.speed);
  rewind_to(0);
  discontinuities_ = 0;
  rate_t0_ = options_.clock->now_s();
}

uint64_t ReplaySource::rotation_of(uint64_t ordinal) const {
  const auto it = std::upper_bound(rotation_starts_.begin(), rotation_starts_.end(), ordinal);
  return it == rotation_starts_.begin() ? 0 : uint64_t(it - rotation_starts_.begin() - 1);
}

uint64_t ReplaySource::position_rotation() const {
  return rotation_of(have_next_ ? next_ordinal_ : read_pos_);
}

double ReplaySource::media_time(const capture::Datagram& d,
                                const std::vector<cat240::Record>& recs) {
  switch (pacing_) {
    case Pacing::CaptureTime:
      return d.time != 0 ? d.time : last_media_;
    case Pacing::TimeOfDay:
      for (const auto& r : recs) {
        if (!r.tod) continue;
        const double tod = double(*r.tod) / 128.0;
        if (last_tod_ >= 0 && tod < last_tod_ - 43200) tod_day_ += 86400;  // past midnight
        last_tod_ = tod;
        return tod + tod_day_;
      }
      return last_media_;
    case Pacing::RotationRate:
    case Pacing::Auto:
      for (const auto& r : recs) {
        if (r.type != cat240::MessageType::Video || !r.header) continue;
        const double frac = double(r.header->start_az) / 65536.0;
        return (double(rotation_of(read_pos_ - 1)) + frac) * options_.rotation_period_s;
      }
      return last_media_;
  }
  return last_media_;
}

bool ReplaySource::fetch_next() {
  if (!reader_->next(next_)) return false;
  next_ordinal_ = read_pos_++;
  next_records_.clear();
  decoder_.decode(next_.payload, next_.time, next_records_);
  next_media_ = media_time(next_, next_records_);
  have_next_ = true;
  return true;
}

void ReplaySource::rewind_to(uint64_t ordinal) {
  reader_->rewind();
  read_pos_ = 0;
  capture::Datagram skip;
  while (read_pos_ < ordinal && reader_->next(skip)) ++read_pos_;
  have_next_ = false;
  last_tod_ = -1;
  tod_day_ = 0;
  have_delivered_ = false;
  tracker_.reset();
  need_anchor_ = true;
  ++discontinuities_;
}

void ReplaySource::deliver(std::vector<cat240::Record>& out) {
  for (auto& r : next_records_) {
    if (r.msg_index) tracker_.observe(r.sac, r.sic, *r.msg_index);
    out.push_back(std::move(r));
  }
  ++datagrams_;
  records_ += next_records_.size();
  bytes_ += next_.payload.size();
  last_media_ = next_media_;
  have_delivered_ = true;
  have_next_ = false;
}

bool ReplaySource::poll(std::vector<cat240::Record>& out) {
  if (ended_) return false;
  const double now = options_.clock->now_s();
  if (now - rate_t0_ >= 1.0) {
    bytes_per_s_ = double(bytes_ - rate_bytes0_) / (now - rate_t0_);
    rate_bytes0_ = bytes_;
    rate_t0_ = now;
  }
  if (paused_ && !stepping_) return true;
  bool looped = false;
  const std::size_t out_before = out.size();
  for (std::size_t budget = options_.max_datagrams_per_poll; budget > 0;) {
    if (!have_next_ && !fetch_next()) {
      if (!loop_ || looped) {
        if (!loop_) {
          ended_ = true;
          stepping_ = false;
        }
        break;
      }
      rewind_to(0);
      looped = true;
      stepping_ = false;  // a step ends at the end of the file
      if (paused_) break;
      continue;
    }
    if (need_anchor_) {
      media_anchor_ = next_media_;
      wall_anchor_ = now;
      need_anchor_ = false;
    }
    if (stepping_) {
      if (position_rotation() >= step_target_) {
        stepping_ = false;
        need_anchor_ = true;
        break;
      }
    } else if (speed_ > 0) {
      // Silences and jumps back in the file's clock do not stall the replay.
      if (have_delivered_ &&
          (next_media_ - last_media_ > options_.max_gap_s || next_media_ < last_media_ - 1.0)) {
        media_anchor_ = next_media_;
        wall_anchor_ = now;
      }
      const double due = media_anchor_ + (now - wall_anchor_) * speed_;
      if (next_media_ > due) break;
    }
    deliver(out);
    --budget;
  }
  return !ended_ || out.size() > out_before;
}

void ReplaySource::set_paused(bool paused) {
  if (paused_ && !paused) need_anchor_ = true;
  paused_ = paused;
  if (!paused) stepping_ = false;
}

void ReplaySource::set_speed(double factor) {
  double s = factor;
  if (!(s >= 0) || !std::isfinite(s)) s = 1.0;
  if (s > 0) s = std::clamp(s, kMinSpeed, kMaxSpeed);
  if (s != factor)
    spdlog::warn("replay: speed {} not in 0.1..100 (or 0 = unpaced); using {}", factor, s);
  speed_ = s;
  need_anchor_ = true;
}

void ReplaySource::step_rotation() {
  paused_ = true;
  stepping_ = true;
  step_target_ = position_rotation() + 1;
}

void ReplaySource::seek_rotation(uint64_t n) {
  if (n >= rotation_starts_.size()) {
    spdlog::warn("replay: rotation {} does not exist ({} rotations); going to the last", n,
                 rotation_starts_.size());
    n = rotation_starts_.size() - 1;
  }
  rewind_to(rotation_starts_[n]);
  stepping_ = false;
  ended_ = false;
}

SourceStatus ReplaySource::status() const {
  SourceStatus s;
  s.uri = options_.uri;
  s.state = ended_ ? "ended" : paused_ ? "paused" : "running";
  s.datagrams = datagrams_;
  s.records = records_;
  s.bytes = bytes_;
  s.bytes_per_s = bytes_per_s_;
  s.lost_messages = tracker_.lost();
  s.errors = decoder_.stats().errors;
  const capture::CaptureStats& cs = reader_->stats();
  s.skipped = cs.non_cat240;
  for (const auto& [k, v] : cs.skipped) s.skipped += k == "not_cat240" ? 0 : v;
  s.skipped = s.skipped >= skipped_base_ ? s.skipped - skipped_base_ : 0;
  s.rotation = position_rotation();
  s.discontinuities = discontinuities_;
  return s;
}

}  // namespace sweepline::replay
