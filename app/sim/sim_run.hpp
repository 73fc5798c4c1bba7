#pragma once
// `sweepline sim` without the command line: runs a scenario for some rotations and sends the
// result to a capture file (pcap, pcapng or raw ASTERIX), a truth file and/or live UDP.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "app/sim/scenario.hpp"

namespace sweepline::sim {

struct SimProgress {
  uint64_t rotation = 0;   // rotations finished
  uint64_t rotations = 0;  // asked for
  uint64_t records = 0;
  uint64_t datagrams = 0;
  uint64_t bytes = 0;  // UDP payload bytes
  uint64_t truth_lines = 0;
  uint64_t udp_dropped = 0;  // datagrams the socket refused (full buffer)
  double elapsed_s = 0;      // wall clock
  double sim_s = 0;          // simulated time covered
  bool stopped = false;      // ended early by SimRunOptions::stop
};

struct SimRunOptions {
  Scenario scenario;
  uint64_t rotations = 4;  // 0 = endless (live UDP without a file only)
  std::string out_path;    // "" = none; *.pcap / *.pcapng = pcap(ng), anything else raw ASTERIX
  std::string truth_path;  // "" = none; JSON lines
  std::string udp;         // "" = none; GROUP:PORT streamed live
  double speed = 1;        // live pacing: 1 = real time, N = N times faster, 0 = unpaced
  std::string dest = "239.0.1.2:8600";               // destination written into pcap files
  std::string source = "10.0.0.1:8600";              // source address written into pcap files
  std::function<void(const SimProgress&)> progress;  // after every rotation
  // Checked before every datagram: once set, the run stops there and closes its outputs (what
  // was written or sent stays whole). Null: runs to the end.
  const std::atomic<bool>* stop = nullptr;
};

// Throws sweepline::Error when an output cannot be opened or written.
SimProgress run_simulation(const SimRunOptions& options);

}  // namespace sweepline::sim
