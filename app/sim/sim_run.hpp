#pragma once
// `sweepline sim` without the command line: runs a scenario for some rotations and sends the
// result to a capture file (pcap, pcapng or raw ASTERIX), a truth file and/or live UDP.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "app/sim/own_ship.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::sim {

struct SimProgress {
  uint64_t rotation = 0;   // rotations finished
  uint64_t rotations = 0;  // asked for
  uint64_t records = 0;
  uint64_t datagrams = 0;
  uint64_t bytes = 0;  // UDP payload bytes
  uint64_t truth_lines = 0;
  uint64_t nmea_updates = 0;  // navigation updates (RMC, VTG, GGA, HDT each) sent or written
  uint64_t udp_dropped = 0;   // datagrams the socket refused (full buffer)
  double elapsed_s = 0;       // wall clock
  double sim_s = 0;           // simulated time covered
  bool stopped = false;       // ended early by SimRunOptions::stop
};

struct SimRunOptions {
  Scenario scenario;
  uint64_t rotations = 4;  // 0 = endless (live UDP without a file only)
  std::string out_path;    // "" = none; *.pcap / *.pcapng = pcap(ng), anything else raw ASTERIX
  std::string truth_path;  // "" = none; JSON lines
  std::string udp;         // "" = none; GROUP:PORT streamed live
  // Own ship's navigation as NMEA 0183 (RMC, VTG, GGA, HDT) once a second of simulated time, at
  // whole seconds from the run's start, interleaved with the video at its time and with the
  // scenario's gyro errors (RMC/VTG carry the GNSS speed over ground, not the log's): to HOST:PORT
  // live (one datagram per update, paced like the video) and/or to a file (one sentence per line,
  // CR LF). "" = none.
  std::string nmea_udp;
  std::string nmea_path;
  double speed = 1;  // live pacing: 1 = real time, N = N times faster, 0 = unpaced
  std::string dest = "239.0.1.2:8600";               // destination written into pcap files
  std::string source = "10.0.0.1:8600";              // source address written into pcap files
  std::function<void(const SimProgress&)> progress;  // after every rotation
  // Checked before every datagram: once set, the run stops there and closes its outputs (what
  // was written or sent stays whole). Null: runs to the end.
  const std::atomic<bool>* stop = nullptr;
};

// Throws sweepline::Error when an output cannot be opened or written.
SimProgress run_simulation(const SimRunOptions& options);

// The NMEA sentences of one navigation update at `t_s` seconds from the run's start (the wire
// clock: kSimEpoch + t_s): own ship's position, course and speed over ground, heading, with the
// scenario's sensor errors (the gyro's, to the heading) when they are on. Speed and course over
// ground are the GNSS receiver's (sim::NavMeasurement): the log's biased speed through water is
// not what RMC/VTG carry.
std::string nmea_update(const Scenario& s, OwnShipTrack& own, double t_s);

}  // namespace sweepline::sim
