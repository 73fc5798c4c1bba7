#pragma once
// A display client's tracks in the engine's snapshot (Engine::tracking()): the servers' CAT048
// track reports (net::RemoteTracks) turned into track::Track for the console, which draws and
// lists them as it does its own tracker's, each source in its own colour (docs/deployment.md).
#include <cstdint>
#include <nlohmann/json.hpp>

#include "app/asterix/cat048_record.hpp"
#include "app/nav/own_ship.hpp"
#include "app/net/remote_tracks.hpp"
#include "app/track/tracker.hpp"

namespace sweepline::engine {

// A remote track's id in the snapshot: its source and its track number (I048/161, 1..4095) in
// one int, so that two servers' track 12 stay apart.
inline constexpr int kRemoteIdStride = 10000;
inline int remote_track_id(int source, uint16_t track_number) {
  return (source + 1) * kRemoteIdStride + int(track_number);
}
inline int remote_source_of(int id) {
  return id / kRemoteIdStride - 1;
}
inline int remote_track_number(int id) {
  return id % kRemoteIdStride;
}

// One report as a track of the display's plane: own ship valid puts it at own ship's position
// plus the report's x/y (I048/042, true north); otherwise about the radar, as the server's plane
// was (true bearings when the server knew its heading). Course and speed from I048/200; status
// from I048/170 (tentative: acquiring; DOU, the server's coasting track: lost); CPA/TCPA against
// own ship's motion with the display's limits (`cpa_limit_m`, `tcpa_limit_s`).
track::Track to_remote_track(const cat048::TargetReport& r, int source,
                             const nav::OwnShipState& own, double cpa_limit_m, double tcpa_limit_s);

// The report's "remote_tracks": per source its endpoint, SAC/SIC, state and counters, and its
// scans as received (tod_s, tracks: track_number, status, range_m, bearing_deg, x_m, y_m,
// course_deg, speed_kn; ended: track numbers), for comparison with the server's report.
nlohmann::json remote_tracks_report(const net::RemoteTrackPicture& picture);

}  // namespace sweepline::engine
