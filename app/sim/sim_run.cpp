#include "app/sim/sim_run.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "app/capture/capture_writer.hpp"
#include "app/common/check.hpp"
#include "app/nav/geodesy.hpp"
#include "app/nav/nmea_writer.hpp"
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

// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's civil_from_days).
void civil_from_days(int64_t z, int& y, int& m, int& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = int(doy - (153 * mp + 2) / 5 + 1);
  m = int(mp < 10 ? mp + 3 : mp - 9);
  y = int(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

}  // namespace

std::string nmea_update(const Scenario& s, OwnShipTrack& own, double t_s) {
  const OwnState o = own.at(t_s);
  const NavMeasurement m =
      measure_nav(s.errors, s.seed, t_s, o.heading_deg, o.course_deg, o.speed_mps);
  const nav::LatLon ll =
      nav::LocalTangentPlane(s.own.lat_deg, s.own.lon_deg).to_geodetic(o.x_m, o.y_m);
  nav::NavFix f;
  const double unix_s = kSimEpoch + t_s;
  const double day = std::floor(unix_s / 86400);
  f.utc_s_of_day = unix_s - day * 86400;
  civil_from_days(int64_t(day), f.year, f.month, f.day);
  f.lat_deg = ll.lat_deg;
  f.lon_deg = ll.lon_deg;
  // RMC/VTG carry the GNSS receiver's speed and course over ground, not the log's speed.
  f.sog_kn = m.sog_mps * 3600.0 / 1852.0;
  f.cog_deg = m.cog_deg;
  f.heading_deg = m.heading_deg;
  f.has_heading = true;
  return nav::format_nav_update(f);
}

SimProgress run_simulation(const SimRunOptions& opt) {
  const Scenario& s = opt.scenario;
  validate(s);
  SWL_CHECK(opt.speed >= 0, "sim: speed must be >= 0");
  SWL_CHECK(opt.rotations > 0 || (!opt.udp.empty() && opt.out_path.empty() &&
                                  opt.truth_path.empty() && opt.nmea_path.empty()),
            "sim: endless runs (rotations 0) are for live UDP only, without --out, --truth or "
            "--nmea-out");
  Scene scene(s);
  RadialProducer producer(s);

  std::unique_ptr<capture::CaptureWriter> writer;
  if (!opt.out_path.empty()) writer = open_output(opt.out_path);
  std::ofstream truth;
  if (!opt.truth_path.empty()) {
    truth.open(opt.truth_path, std::ios::binary | std::ios::trunc);
    SWL_CHECK(truth.good(), "sim: cannot create truth file '" + opt.truth_path + "'");
  }
  std::optional<UdpSender> udp, nmea_udp;
  if (!opt.udp.empty()) udp.emplace(opt.udp);
  if (!opt.nmea_udp.empty()) nmea_udp.emplace(opt.nmea_udp);
  std::ofstream nmea_file;
  if (!opt.nmea_path.empty()) {
    nmea_file.open(opt.nmea_path, std::ios::binary | std::ios::trunc);
    SWL_CHECK(nmea_file.good(), "sim: cannot create NMEA file '" + opt.nmea_path + "'");
  }
  const bool nmea = nmea_udp || nmea_file.is_open();
  OwnShipTrack own(s.own);
  double next_nmea_s = 0;  // the next navigation update, seconds from the start
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
  auto pace = [&](double t_unix) {
    if (opt.speed > 0) {
      const auto due = wall0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>((t_unix - kSimEpoch) / opt.speed));
      std::this_thread::sleep_until(due);
    }
  };
  // Navigation updates due up to `t_s` (seconds from the start), in time order with the video.
  auto send_nmea_until = [&](double t_s) {
    for (; nmea && next_nmea_s <= t_s; next_nmea_s += 1) {
      const std::string text = nmea_update(s, own, next_nmea_s);
      if (nmea_file.is_open()) {
        nmea_file << text;
        SWL_CHECK(nmea_file.good(), "sim: cannot write NMEA file '" + opt.nmea_path + "'");
      }
      if (nmea_udp) {
        pace(kSimEpoch + next_nmea_s);
        nmea_udp->send(
            std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
      }
      ++pr.nmea_updates;
    }
  };
  auto emit = [&]() {
    for (const Packet& p : packets) {
      if (stop_requested()) {
        pr.stopped = true;
        break;
      }
      send_nmea_until(p.time - kSimEpoch);
      if (writer) {
        d.time = p.time;
        d.payload = p.bytes;
        writer->write(d);
      }
      if (udp) {
        pace(p.time);
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
      // The own ship first, when it is enabled (readers of vessel lines skip "own" lines).
      if (s.own.enabled) {
        truth << own_truth_json(scene.own_truth()) << '\n';
        ++pr.truth_lines;
      }
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
  // The updates due before the end of the last rotation sent.
  if (!pr.stopped) send_nmea_until(double(pr.rotation) * period - 1e-9);
  if (writer) writer->flush();
  if (truth.is_open()) truth.flush();
  if (nmea_file.is_open()) nmea_file.flush();
  return pr;
}

}  // namespace sweepline::sim
