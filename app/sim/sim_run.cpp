#include "app/sim/sim_run.hpp"

#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "app/capture/capture_writer.hpp"
#include "app/common/check.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/sim/scene.hpp"
#include "app/sim/udp_sender.hpp"

namespace sweepline::sim {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::unique_ptr<capture::CaptureWriter> open_output(const std::string& path) {
  if (ends_with(path, ".pcapng")) {
    capture::PcapWriteOptions o;
    o.pcapng = true;
    return capture::open_pcap_writer(path, o);
  }
  if (ends_with(path, ".pcap")) return capture::open_pcap_writer(path);
  return capture::open_raw_writer(path);
}

}  // namespace

SimProgress run_simulation(const SimRunOptions& opt) {
  const Scenario& s = opt.scenario;
  validate(s);
  SWL_CHECK(opt.speed >= 0, "sim: speed must be >= 0");
  SWL_CHECK(
      opt.rotations > 0 || (!opt.udp.empty() && opt.out_path.empty() && opt.truth_path.empty()),
      "sim: endless runs (rotations 0) are for live UDP only, without --out or --truth");
  Scene scene(s);
  RadialProducer producer(s);

  std::unique_ptr<capture::CaptureWriter> writer;
  if (!opt.out_path.empty()) writer = open_output(opt.out_path);
  std::ofstream truth;
  if (!opt.truth_path.empty()) {
    truth.open(opt.truth_path, std::ios::binary | std::ios::trunc);
    SWL_CHECK(truth.good(), "sim: cannot create truth file '" + opt.truth_path + "'");
  }
  std::optional<UdpSender> udp;
  if (!opt.udp.empty()) udp.emplace(opt.udp);
  uint32_t dst_ip = 0, src_ip = 0;
  uint16_t dst_port = 0, src_port = 0;
  parse_endpoint(opt.dest, dst_ip, dst_port);
  parse_endpoint(opt.source, src_ip, src_port);

  const auto& r = s.radar;
  const double period = r.period_s();
  const int chunk = 64;
  std::vector<uint8_t> rows(size_t(chunk) * size_t(r.cells));
  std::vector<cat240::Record> records;
  std::vector<Packet> packets;
  SimProgress pr;
  pr.rotations = opt.rotations;
  const auto wall0 = std::chrono::steady_clock::now();
  capture::Datagram d;
  d.src_ip = src_ip;
  d.dst_ip = dst_ip;
  d.src_port = src_port;
  d.dst_port = dst_port;

  auto stop_requested = [&] { return opt.stop && opt.stop->load(std::memory_order_relaxed); };
  auto emit = [&]() {
    for (const Packet& p : packets) {
      if (stop_requested()) {
        pr.stopped = true;
        break;
      }
      if (writer) {
        d.time = p.time;
        d.payload = p.bytes;
        writer->write(d);
      }
      if (udp) {
        if (opt.speed > 0) {
          const auto due =
              wall0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>((p.time - kSimEpoch) / opt.speed));
          std::this_thread::sleep_until(due);
        }
        udp->send(p.bytes);
      }
      ++pr.datagrams;
      pr.bytes += p.bytes.size();
    }
    packets.clear();
  };

  for (uint64_t rot = 0; (opt.rotations == 0 || rot < opt.rotations) && !pr.stopped; ++rot) {
    if (rot > 0) scene.next_rotation();
    if (truth.is_open()) {
      for (const VesselTruth& t : scene.truth()) {
        truth << truth_json(t) << '\n';
        ++pr.truth_lines;
      }
      SWL_CHECK(truth.good(), "sim: cannot write truth file '" + opt.truth_path + "'");
    }
    const double t_rot = kSimEpoch + double(rot) * period;
    records.clear();
    records.push_back(producer.summary(rot, t_rot));
    producer.pack(records, packets);
    pr.records += records.size();
    emit();
    for (int first = 0; first < r.radials; first += chunk) {
      const int n = std::min(chunk, r.radials - first);
      scene.render(first, n, rows.data());
      records.clear();
      for (int i = 0; i < n; ++i) {
        const int a = first + i;
        const double t = t_rot + double(a) / r.radials * period;
        producer.radial(a, rows.data() + size_t(i) * size_t(r.cells), t, records);
      }
      producer.pack(records, packets);
      pr.records += records.size();
      emit();
      if (pr.stopped) break;
    }
    if (pr.stopped) {
      pr.elapsed_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      if (udp) pr.udp_dropped = udp->dropped();
      break;
    }
    pr.rotation = rot + 1;
    pr.sim_s = double(rot + 1) * period;
    pr.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (udp) pr.udp_dropped = udp->dropped();
    if (opt.progress) opt.progress(pr);
  }
  if (writer) writer->flush();
  if (truth.is_open()) truth.flush();
  return pr;
}

}  // namespace sweepline::sim
