#pragma once
// The engine's half of the console's settings file: the source (and the source panel's form) and
// the processing (backend, sizes, pipeline parameters). The view's half (palette, overlays) lives
// in ui/settings.hpp, which writes both into one settings.json; the keys here are that file's
// "source" and "processing" objects. Unknown keys are ignored and missing ones keep their
// defaults, so old files keep loading.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/source/source.hpp"
#include "app/track/zones.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::engine {

struct SourceSettings {
  std::string uri = kDefaultSourceUri;
  // The source panel's form: what its Simulator, File and UDP tabs open next. udp_group and
  // udp_port are also the destination written into re-encoded recordings.
  std::string scenario = "harbour";
  int seed = 1;
  double rpm = 24;
  std::string file_path;
  std::string udp_group = "239.0.1.2";
  int udp_port = 8600;
  std::string udp_interface;
  double speed = 1.0;  // 0 = unpaced
  bool loop = true;
};

// Limits of the settings that size memory (docs/limits.md).
inline constexpr int kMaxDisplaySide = 8192;         // display image side (processing.size)
inline constexpr int kMaxPolarSide = 16384;          // azimuths, range bins
inline constexpr int64_t kMaxPolarCells = 64 << 20;  // azimuths x range bins: 64 Mi cells

struct ProcessingSettings {
  std::string backend = "cuda";  // preferred; falls back to cpu with a message
  int size = 0;                  // display image side; 0: 4096 with CUDA, 1536 on the CPU
  int azimuths = 4096;           // polar frame the sweep assembler keeps
  int range_bins = 4096;
  gpu::PipelineParams params = default_params();
  static gpu::PipelineParams default_params();
};

// ARPA target tracking (app/track; docs/tracking.md). Limits are the operator's, in the units
// an operator sets them in; the tracker's own knobs keep the defaults of track::TrackerParams.
struct TrackingSettings {
  bool enabled = true;
  // true: any new echo may start a track; false: only echoes inside an acquisition zone (and
  // manual acquisition).
  bool auto_acquire = true;
  int confirm_hits = 3;        // acquiring -> tracked when seen in confirm_hits ...
  int confirm_window = 5;      // ... of the last confirm_window scans
  int keep_hits = 5;           // tracked while seen in keep_hits ...
  int keep_window = 10;        // ... of the last keep_window scans (IMO: 5 of 10); else lost
  int delete_lost_scans = 10;  // a lost track is deleted after this many more scans ...
  double delete_lost_s = 60;   // ... or seconds, whichever first
  int capacity = 2000;         // live tracks of every status
  // CPA/TCPA alarm: 1 NM and 12 min, the limits usual on merchant ships in open water (the
  // standard leaves them to the operator; a harbour wants less).
  double cpa_limit_nm = 1.0;
  double tcpa_limit_min = 12.0;
  double vector_minutes = 6;         // vector length drawn on the PPI
  std::string vector_mode = "true";  // "true" or "relative" (vectors and trails)
  bool trails = true;                // past positions drawn
  double trail_minutes = 3;          // past positions kept (trail_minutes x 60 / interval points)
  double trail_interval_s = 15;      // spacing of past positions
  // Measurement accuracy fed to the tracker; 0: from the beam, pulse and video grid
  // (engine::radar_accuracy()).
  double range_sigma_m = 0;
  double bearing_sigma_deg = 0;
  std::vector<track::AcquisitionZone> zones;  // automatic acquisition zones
};

// Own ship's navigation (app/nav; docs/navigation.md).
struct NavigationSettings {
  // NMEA 0183 over UDP: "udp://GROUP:PORT[?iface=IF]", "udp://:PORT" (any address) or "" (none:
  // the simulator's own ship when the source is sim://, else no own ship).
  std::string udp;
  double stale_s = 5;  // a fix, course/speed or heading older than this is not used
};

struct EngineSettings {
  SourceSettings source;
  ProcessingSettings processing;
  TrackingSettings tracking;
  NavigationSettings navigation;
};

// The "source" and "processing" objects of settings.json. The readers throw on a value of the
// wrong type or an unknown name (the caller then keeps its defaults and says why).
nlohmann::json source_json(const SourceSettings& s);
nlohmann::json processing_json(const ProcessingSettings& s);
nlohmann::json params_json(const gpu::PipelineParams& p);
void read_source(const nlohmann::json& j, SourceSettings& s);
void read_processing(const nlohmann::json& j, ProcessingSettings& s);
void read_params(const nlohmann::json& j, gpu::PipelineParams& p);
// The "tracking" and "navigation" objects of settings.json; the readers refuse a bad value
// naming its key ("tracking.cpa_limit_nm must be ...").
nlohmann::json tracking_json(const TrackingSettings& s);
nlohmann::json navigation_json(const NavigationSettings& s);
void read_tracking(const nlohmann::json& j, TrackingSettings& s);
void read_navigation(const nlohmann::json& j, NavigationSettings& s);
// Throws sweepline::Error naming the first bad value (the readers call them).
void check_tracking(const TrackingSettings& s);
void check_navigation(const NavigationSettings& s);
// A zone as settings.json holds it: {"kind": "arc", "range_min_m", "range_max_m",
// "bearing_from_deg", "bearing_to_deg", "relative_to_heading"} or {"kind": "polygon", "points":
// [[x_m, y_m], ...]}.
nlohmann::json zone_json(const track::AcquisitionZone& z);
track::AcquisitionZone read_zone(const nlohmann::json& j);
// Throws sweepline::Error naming the settings key of the first value out of its range (the
// readers call it; so can a caller that sets values another way).
void check_params(const gpu::PipelineParams& p);

// Reads j[key] into v when the key is there and not null, so a missing key keeps the default;
// throws on a value of the wrong type. Shared by the view's half in ui/settings.cpp.
template <class T>
void read_field(const nlohmann::json& j, const char* key, T& v) {
  if (j.contains(key) && !j[key].is_null()) v = j[key].get<T>();
}

}  // namespace sweepline::engine
