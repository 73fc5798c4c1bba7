#pragma once
// What `sweepline serve` says about each processed rotation, built from the engine's state:
// CAT048 plot reports (the frame's plots, as the radar measured them), CAT048 track reports
// (the tracker's live tracks; a track that disappeared gets one last report flagged end of
// track), CAT034 north marker and sector crossing messages (from the video as it passes), and
// the NMEA 0183 radar target sentences (OSD, TTM, TLL) a chart plotter takes. Pure functions of
// their inputs; no sockets.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/asterix/cat034_record.hpp"
#include "app/asterix/cat048_record.hpp"
#include "app/nav/own_ship.hpp"
#include "app/track/tracker.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::serve {

// A UDP payload of reports or sentences is kept under this (an Ethernet MTU with room for the
// IP and UDP headers), so the small streams are never IP-fragmented.
inline constexpr size_t kMessageDatagramMax = 1400;
// Sector crossing messages per rotation (I034/020): every 22.5 deg, the granularity at which a
// VTS or ATC system usually checks that the radar's data keeps flowing.
inline constexpr int kSectorsPerRotation = 16;

struct RadarIdentity {
  uint8_t sac = 0;  // data source identifier (I048/010, I034/010, I240/010 of the input)
  uint8_t sic = 1;
};

// Seconds into the UTC day of a time on the video's clock (a time of day, possibly unwrapped).
double time_of_day(double t_s);
// The CAT048 track number of a tracker id (ids grow without end; I048/161 has 12 bits): 1..4095,
// wrapping.
uint16_t track_number(int track_id);

// One plot report per plot; range and azimuth as the radar measured them (the video's azimuth
// origin: the bow for a ship's radar, north for a shore radar).
std::vector<cat048::TargetReport> plot_reports(const std::vector<gpu::Plot>& plots,
                                               const RadarIdentity& id);

// One track report per live track at `time_s`: polar (I048/040) and Cartesian (I048/042)
// position from own ship (true north), ground speed and course (I048/200), status (I048/170:
// acquiring = tentative, lost = coasting, reported as DOU). `ended`: tracks gone since the
// previous rotation, each reported once more with TRE set at its last known state.
std::vector<cat048::TargetReport> track_reports(const std::vector<track::Track>& tracks,
                                                const std::vector<track::Track>& ended,
                                                double time_s, const RadarIdentity& id);

// NMEA 0183 for one rotation: OSD when own ship is known, then TTM per track and TLL per track
// when own ship's position is known (a TLL needs latitude and longitude). Tracks are relative
// (bearings R) when the view says so. Sentences concatenated per datagram, each datagram under
// kMessageDatagramMax.
std::vector<std::string> nmea_datagrams(const std::vector<track::Track>& tracks,
                                        const nav::OwnShipState& own, bool relative_only,
                                        double time_s);

// CAT034 from the video as it passes: north markers and sector crossings, with the rotation
// period measured between north crossings. Fed with each video record's azimuth and time.
class ServiceClock {
 public:
  explicit ServiceClock(const RadarIdentity& id) : id_(id) {}
  // The messages due at a radial starting at `azimuth_deg` seen at `tod_s` (seconds into the
  // day): none, or the sector crossings passed since the previous radial (a north marker when
  // north was passed).
  std::vector<cat034::ServiceMessage> on_radial(double azimuth_deg, double tod_s);
  // Own ship's or the site's position, written into north markers (I034/120); nullopt: none.
  void set_position(std::optional<cat034::Position> p) { position_ = p; }
  // Whether the processing dropped frames (I034/050 OVL RDP).
  void set_overloaded(bool v) { overloaded_ = v; }
  std::optional<double> rotation_period_s() const { return period_s_; }

 private:
  RadarIdentity id_;
  std::optional<double> last_az_;
  std::optional<double> last_north_tod_;
  std::optional<double> period_s_;
  std::optional<cat034::Position> position_;
  bool overloaded_ = false;
};

}  // namespace sweepline::serve
