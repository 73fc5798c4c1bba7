#pragma once
// What the engine's target tracking shows the console: one snapshot, refreshed each time a
// frame is collected, that the UI reads without waiting (Engine::tracking()). The commands
// (acquire, cancel, zones, acknowledge, settings) are Engine's. No GL, no ImGui.
//
// Coordinates: the tracker's local plane, x east, y north, metres (own_ship.x_m/y_m is where
// own ship is in it). Without own ship (relative_only) the plane is centred on the radar at
// each plot's time and north-up when a heading is known, else bow-up.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/engine/engine_settings.hpp"
#include "app/nav/nmea_parser.hpp"
#include "app/nav/nmea_udp.hpp"
#include "app/nav/own_ship.hpp"
#include "app/net/remote_tracks.hpp"
#include "app/track/tracker.hpp"
#include "app/track/zones.hpp"

namespace sweepline::engine {

// Where own ship's navigation came from for the latest update.
enum class OwnShipSource { None, Nmea, Simulator };
const char* to_string(OwnShipSource s);  // "none", "nmea", "simulator"

struct TrackingView {
  bool enabled = false;  // tracking on in the settings (off: everything below stays empty)
  double time_s = 0;     // the tracker's clock at the latest update (the frame's latest sweep)
  uint64_t updates = 0;  // tracker updates since the last reset
  // Every live track extrapolated to time_s, ids ascending. Speeds in m/s, CPA in m, TCPA in s
  // (the report converts to kn, NM, min).
  std::vector<track::Track> tracks;
  std::vector<track::Alarm> alarms;                           // oldest first
  int unacknowledged = 0;                                     // alarms not acknowledged yet
  std::vector<std::pair<int, track::AcquisitionZone>> zones;  // id, zone

  // Own ship at time_s, as the tracker used it. own_ship.valid false: tracks are relative.
  nav::OwnShipState own_ship;
  OwnShipSource own_ship_source = OwnShipSource::None;
  bool relative_only = true;  // no ground-stabilised own ship: tracks and CPA are relative
  // Empty when all is well; else for the operator: no own-ship feed, NMEA stale, the receiver's
  // error ("NMEA udp://... : port in use"), ...
  std::string warning;

  // The NMEA receiver (navigation.udp set): whether it runs, why it does not, its counters.
  bool nmea_active = false;
  std::string nmea_error;
  nav::NmeaCounters nmea;
  nav::NmeaUdpStats nmea_udp;

  track::TrackerStats stats;
  uint64_t resets = 0;        // tracker resets (source change, seek, clock going back)
  double update_ms = 0;       // the latest update's cost (conversion + tracker, wall time)
  double update_ms_max = 0;   // the largest since the last reset
  std::size_t plots_fed = 0;  // plots fed at the latest update
  TrackingSettings settings;  // as applied
  // A display client (udp://...?tracks=GROUP:PORT): the tracks are its servers' CAT048, no
  // tracker of its own runs. One entry per server, in the order given (its colour), with its
  // SAC/SIC, the seconds since its last report and whether it is stale ("no data").
  bool remote = false;
  std::vector<net::RemoteSourceStatus> remote_sources;
  std::string command_error;  // why the latest refused command was refused (cleared on success)
};

}  // namespace sweepline::engine
