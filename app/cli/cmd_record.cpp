// `sweepline record udp://GROUP:PORT --out FILE`: records a live feed as it arrives, without the
// display, until SIGINT/SIGTERM, --duration, --count or --idle; then flushes, closes and prints
// what it received and wrote. The recording is the receiver's (app/net/udp_receiver.hpp): every
// datagram received, before any queue; a raw file takes only ASTERIX datagrams.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/cli/stop_signals.hpp"
#include "app/common/check.hpp"
#include "app/net/udp_receiver.hpp"
#include "app/source/source_uri.hpp"

namespace sweepline::cli {

namespace {

struct RecordOptions {
  std::string source;
  std::string out;
  std::string format = "pcap";
  double duration_s = 0;  // 0: no limit
  uint64_t count = 0;     // 0: no limit
  double idle_s = 0;      // 0: no limit
  bool quiet = false;
};

// The reason a run ended, for the summary line.
std::string ended_by(const StopSignals& signals, bool count, bool duration, bool idle) {
  if (signals.requested()) return std::string("stopped by ") + signals.signal_name();
  if (count) return "count reached";
  if (duration) return "duration reached";
  if (idle) return "feed idle";
  return "stopped";
}

int run_record(const RecordOptions& o) {
  const source::ParsedUri u = source::parse_uri(o.source);
  SWL_CHECK(u.scheme == "udp", "record: the source must be udp://GROUP:PORT, not '" + o.source +
                                   "' (files are recordings already)");
  SWL_CHECK(!u.query.count("record") && !u.query.count("format"),
            "record: give the file with --out and its format with --format, not in the URI");
  const net::LiveOptions live = source::live_options(u, SourceOptions{}, o.source);
  const capture::CaptureFormat format = capture::recording_format_from_string(o.format);

  // Before the receiver's thread: SIGINT/SIGTERM only set a flag (stop_signals.hpp).
  StopSignals signals;
  net::UdpReceiver rx(live.udp);
  rx.start_recording(o.out, format);
  if (!o.quiet)
    std::fprintf(stderr, "record: %s to %s (%s); SIGINT or SIGTERM stops\n", o.source.c_str(),
                 o.out.c_str(), capture::to_string(format));

  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto last_data = t0;
  uint64_t seen = 0;
  bool by_count = false, by_duration = false, by_idle = false;
  std::vector<capture::Datagram> batch;
  while (!signals.requested()) {
    rx.wait_for_data(std::chrono::milliseconds(20));
    batch.clear();
    rx.drain(batch);  // the recording is written by the receiver; the queue is only emptied
    const auto now = Clock::now();
    const net::UdpStats st = rx.stats();
    if (st.datagrams != seen) {
      seen = st.datagrams;
      last_data = now;
    }
    const double elapsed = std::chrono::duration<double>(now - t0).count();
    by_count = o.count > 0 && st.datagrams >= o.count;
    by_duration = o.duration_s > 0 && elapsed >= o.duration_s;
    by_idle = o.idle_s > 0 && seen > 0 &&
              std::chrono::duration<double>(now - last_data).count() >= o.idle_s;
    if (by_count || by_duration || by_idle) break;
    const net::RecordingStats rec = rx.recording();
    SWL_CHECK(rec.error.empty(), "record: " + o.out + ": " + rec.error);
  }
  rx.stop();            // what reached the socket before the stop is still recorded
  rx.stop_recording();  // flushes and closes
  const net::RecordingStats rec = rx.recording();
  const net::UdpStats st = rx.stats();
  const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("recorded %llu of %llu datagrams received to %s in %.2f s (%s)",
              static_cast<unsigned long long>(rec.written),
              static_cast<unsigned long long>(st.datagrams), o.out.c_str(), elapsed,
              ended_by(signals, by_count, by_duration, by_idle).c_str());
  for (const auto& [reason, n] : rec.not_written)
    std::printf(", not recorded %s=%llu", reason.c_str(), static_cast<unsigned long long>(n));
  std::printf(", %llu dropped by the kernel\n", static_cast<unsigned long long>(st.kernel_dropped));
  std::fflush(stdout);
  SWL_CHECK(rec.error.empty(), "record: " + o.out + ": " + rec.error);
  return 0;
}

}  // namespace

Command add_record_command(CLI::App& parent) {
  auto o = std::make_shared<RecordOptions>();
  Command c;
  c.app = parent.add_subcommand(
      "record", "Record a live udp:// feed to a capture file until stopped (no display)");
  c.app->add_option("SOURCE", o->source, "udp://GROUP:PORT[?iface=IF&rcvbuf=BYTES]")->required();
  c.app->add_option("--out", o->out, "Capture file to write")
      ->required()
      ->check(output_file_check());
  c.app
      ->add_option("--format", o->format,
                   "pcap, pcapng (every datagram, with arrival times and addresses) or raw "
                   "(ASTERIX datagrams only, back to back)")
      ->check(CLI::IsMember({"pcap", "pcapng", "raw"}))
      ->capture_default_str();
  c.app->add_option("--duration", o->duration_s, "Stop after this many seconds (0: no limit)")
      ->check(non_negative_check());
  c.app->add_option("--count", o->count, "Stop after this many datagrams (0: no limit)")
      ->check(non_negative_check());
  c.app
      ->add_option("--idle", o->idle_s,
                   "Stop when no datagram has come for this many seconds after the first (the "
                   "feed's end; 0: no limit)")
      ->check(non_negative_check());
  c.app->add_flag("--quiet", o->quiet, "No start line on stderr");
  c.run = [o] { return run_record(*o); };
  return c;
}

}  // namespace sweepline::cli
