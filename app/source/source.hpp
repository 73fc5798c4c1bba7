#pragma once
// Every input the viewer and the CLI can open — simulator, capture file, live UDP — behind one
// interface that yields decoded CAT240 records; the sweep assembler turns them into frames.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/asterix/cat240_record.hpp"
#include "app/nav/own_ship.hpp"

namespace sweepline {

struct SourceStatus {
  std::string uri;
  std::string state;  // "running", "paused", "ended", "error: ..."
  uint64_t datagrams = 0;
  uint64_t records = 0;
  uint64_t bytes = 0;
  double bytes_per_s = 0;
  uint64_t lost_messages = 0;              // from I240/020 gaps
  std::map<std::string, uint64_t> errors;  // by reason
  uint64_t skipped = 0;                    // datagrams that were not CAT240 / filtered out
  // Live sources: datagrams the kernel dropped before they were read (its buffer was full).
  uint64_t kernel_dropped = 0;
  // Live sources' recording (RecordSource::start_raw_recording, udp://...?record=): datagrams
  // written, and those received but not written, by reason (a raw file takes only ASTERIX).
  bool recording = false;
  uint64_t recorded = 0;
  std::map<std::string, uint64_t> not_recorded;
  uint64_t rotation = 0;         // replay: rotation (file index) now being delivered
  uint64_t discontinuities = 0;  // replay: seeks and loops so far (an assembler may reset)
};

// Replay controls; only file-backed sources (and the simulator) offer them.
class ReplayControl {
 public:
  virtual ~ReplayControl() = default;
  virtual void set_paused(bool paused) = 0;
  virtual bool paused() const = 0;
  virtual void set_speed(double factor) = 0;  // 0 = unpaced (as fast as possible)
  virtual double speed() const = 0;
  virtual void step_rotation() = 0;  // while paused: deliver one more rotation
  virtual void seek_rotation(uint64_t n) = 0;
  virtual uint64_t rotation_count() const = 0;  // rotations known (file index); 0 if unknown
  virtual void set_loop(bool loop) = 0;
  virtual bool loop() const = 0;
};

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // Appends the records that are due now (pacing is the source's business) without blocking
  // for long; returns false once the source has ended for good.
  virtual bool poll(std::vector<cat240::Record>& out) = 0;
  virtual SourceStatus status() const = 0;
  virtual ReplayControl* replay() { return nullptr; }
  // A live source delivers as data arrives and cannot be paused, rewound or asked to wait: the
  // engine reads it on an ingest thread of its own so that nothing is lost while a frame is
  // processed. Replays and the simulator deliver when asked (they are not live).
  virtual bool live() const { return false; }
  // Live sources: waits until poll() has something or `max_ms` passes. Others return at once.
  virtual void wait_for_data(int /*max_ms*/) {}
  // Live sources record every datagram exactly as it arrives (bytes, arrival time, addresses),
  // as the receiver takes it in (before any queue), to `path` in `format` ("pcap", "pcapng" or
  // "raw"; raw keeps only ASTERIX datagrams and counts the rest in status().not_recorded).
  // Returns false when this source has no such tap (files and the simulator); throws
  // sweepline::Error when the file cannot be created. A write error stops the recording and
  // shows in status(). Stopping (or destroying the source) flushes and closes the file.
  virtual bool start_raw_recording(const std::string& /*path*/, const std::string& /*format*/) {
    return false;
  }
  virtual void stop_raw_recording() {}
  virtual bool raw_recording() const { return false; }
  virtual uint64_t raw_recorded() const { return 0; }
  // Own ship's navigation at `t_s` on the clock this source stamps its video rows with
  // (PolarFrame::row_time_s, so gpu::Plot::time_s): position in the simulator's plane (x east,
  // y north of the scene origin), course and speed over ground, heading. nullopt when the
  // source carries none (files, live video: own ship then comes from NMEA, or there is none).
  // The simulator's own ship is given as its sensors measure it (gyro and log errors when the
  // scenario has them on), never the truth. Called on the thread that polls.
  virtual std::optional<nav::OwnShipState> navigation(double /*t_s*/) { return std::nullopt; }
};

struct SourceOptions {
  double speed = 1.0;  // replay speed, 0 = unpaced
  bool loop = true;
  int port = 0;           // capture filter on UDP destination port (0 = any)
  std::string group;      // capture filter on destination multicast group ("" = any)
  std::string interface;  // multicast join interface for udp:// (address or name)
  // udp:// only: record the feed as it arrives (original arrival times and addresses) to this
  // file ("" = no recording) in record_format: "pcap", "pcapng" or "raw".
  std::string record_path;
  std::string record_format = "pcap";
};

// Opens `sim://SCENARIO?seed=N&rpm=R[&nav=0]` (nav=0: the simulator gives no own-ship
// navigation, as a ship whose feed failed), `udp://GROUP:PORT[?iface=IF]`, `file://PATH` or a plain
// path (raw ASTERIX, pcap, pcapng, FINAL; detected from the content). Throws sweepline::Error
// with a message fit for the user when the URI is malformed or the source cannot be opened.
std::unique_ptr<RecordSource> open_source(const std::string& uri,
                                          const SourceOptions& options = {});

inline constexpr const char* kDefaultSourceUri = "sim://harbour?seed=1&rpm=24";

}  // namespace sweepline
