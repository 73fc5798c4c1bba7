#pragma once
// A display client's tracks (docs/deployment.md, "Display clients"): the CAT048 track reports
// that one or several servers (`sweepline serve`, one per radar) send, each listened to on its
// own UDP group:port, gathered into one picture without a tracker of the display's own.
//
// A server sends each rotation's tracks as a burst of datagrams whose reports all carry the same
// time of day (I048/140): a new time of day from a source starts its next scan. A track is shown
// from its latest report until the source's next complete scan leaves it out, or a report flags
// its end (I048/170 TRE). A source silent for longer than its stale time shows "no data" with
// the seconds since its last report, its tracks are taken off the picture (a target picture that
// no longer updates must not look live), and it recovers with the next scan that arrives.
// Malformed datagrams are counted by reason (the strict CAT048 decoder) and skipped.
//
// RemoteTrackPicture is the logic alone (datagrams in, picture out; tests feed it directly);
// RemoteTracks adds one UDP receiver per endpoint (app/net/udp_receiver: its own thread, the
// kernel's drop count).
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/cat048_decoder.hpp"
#include "app/asterix/cat048_record.hpp"
#include "app/net/udp_receiver.hpp"

namespace sweepline::net {

// A source is stale ("no data") once silent for this many of its measured scan periods (one
// rotation may be late on a loaded server; two in a row means it is gone) ...
inline constexpr double kRemoteStaleScans = 2.5;
// ... and never sooner than this: before a period is known, and at high replay speeds where a
// scan lasts a fraction of a second and a scheduling hiccup must not blank the display.
inline constexpr double kRemoteStaleMinS = 3.0;
// Scans kept per source for the headless report (about 14 minutes at 24 rpm).
inline constexpr size_t kRemoteScanLog = 2000;
// A track report receiver needs little buffer: a scan of 2000 tracks is about 46 kB.
inline constexpr int kRemoteRcvbufBytes = 4 << 20;

// One scan of one source as received: every track report of one time of day, in arrival order.
struct RemoteScan {
  double tod_s = 0;
  std::vector<cat048::TargetReport> tracks;  // live tracks (TRE clear)
  std::vector<uint16_t> ended;               // track numbers reported with TRE set
};

struct RemoteSourceStatus {
  std::string endpoint;      // GROUP:PORT as given
  bool seen = false;         // a track report has arrived
  uint8_t sac = 0, sic = 0;  // of the latest report (I048/010)
  // Seconds since the latest track report (since the receiver opened when none has come).
  double since_update_s = 0;
  bool stale = true;  // no data: nothing yet, or silent for longer than stale_after_s
  double stale_after_s = kRemoteStaleMinS;
  double scan_period_s = 0;  // between the latest two scans' times of day (0: not known yet)
  double tod_s = 0;          // the latest scan's time of day
  uint64_t datagrams = 0, bytes = 0;
  uint64_t track_reports = 0;  // decoded track reports
  uint64_t other_reports = 0;  // decoded plot reports (no track number), skipped
  uint64_t scans = 0;
  uint64_t kernel_dropped = 0;  // the receiver's socket (SO_RXQ_OVFL)
  uint64_t queue_dropped = 0;   // the receiver's queue (this side too slow)
  // Decoder errors by reason (asterix_fields.hpp), receiver errors ("recv", "truncated").
  std::map<std::string, uint64_t> errors;
  size_t tracks = 0;  // in the picture now
};

struct RemoteTrack {
  int source = 0;  // index of the source (its endpoint's place in the list)
  cat048::TargetReport report;
};

class RemoteTrackPicture {
 public:
  // One source per endpoint, in this order (the order gives each its colour).
  explicit RemoteTrackPicture(std::vector<std::string> endpoints, double now_s = 0);

  // One datagram from source `source` that arrived at `now_s` (a steady clock, seconds).
  void ingest(int source, std::span<const uint8_t> datagram, double now_s);
  // Ages the sources to `now_s`: a source silent for too long goes stale and its tracks leave.
  void age(double now_s);

  // Every track of every source that is not stale, by source then track number.
  std::vector<RemoteTrack> tracks() const;
  const std::vector<RemoteSourceStatus>& sources() const { return status_; }
  RemoteSourceStatus& status(int source) { return status_.at(size_t(source)); }
  // The source's latest scans, oldest first (at most kRemoteScanLog).
  const std::deque<RemoteScan>& scans(int source) const { return state_.at(size_t(source)).log; }
  // The newest time of day of any source that is not stale; nullopt when every one is.
  std::optional<double> latest_tod() const;

 private:
  struct State {
    cat048::Decoder decoder{cat048::DecoderOptions{false}};
    std::optional<double> tod;  // the scan being received
    // By track number: the scan being received, and the one before it (complete).
    std::map<uint16_t, cat048::TargetReport> current, previous;
    std::deque<RemoteScan> log;
    double last_update_s = 0;
    double opened_s = 0;
  };
  void start_scan(State& st, RemoteSourceStatus& s, double tod_s);

  std::vector<RemoteSourceStatus> status_;
  std::vector<State> state_;
  std::vector<cat048::TargetReport> scratch_;
};

// The picture fed by one UDP receiver per endpoint.
class RemoteTracks {
 public:
  // Opens every receiver. Throws sweepline::Error naming the endpoint (bad address, port in use).
  explicit RemoteTracks(const std::vector<UdpConfig>& endpoints);
  // Takes in what arrived and ages the sources (a steady clock, seconds; default: now).
  void poll();
  void poll(double now_s);
  const RemoteTrackPicture& picture() const { return picture_; }
  // The bound port of a source's receiver (tests bind port 0).
  uint16_t port(int source) const { return receivers_.at(size_t(source))->port(); }

 private:
  std::vector<std::unique_ptr<UdpReceiver>> receivers_;
  RemoteTrackPicture picture_;
  std::vector<capture::Datagram> scratch_;
};

// A steady clock in seconds (the picture's time).
double steady_now_s();

}  // namespace sweepline::net
