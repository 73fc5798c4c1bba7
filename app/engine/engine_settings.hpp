#pragma once
// The engine's half of the console's settings file: the source (and the source panel's form) and
// the processing (backend, sizes, pipeline parameters). The view's half (palette, overlays) lives
// in ui/settings.hpp, which writes both into one settings.json; the keys here are that file's
// "source" and "processing" objects. Unknown keys are ignored and missing ones keep their
// defaults, so old files keep loading.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/source/source.hpp"
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

struct EngineSettings {
  SourceSettings source;
  ProcessingSettings processing;
};

// The "source" and "processing" objects of settings.json. The readers throw on a value of the
// wrong type or an unknown name (the caller then keeps its defaults and says why).
nlohmann::json source_json(const SourceSettings& s);
nlohmann::json processing_json(const ProcessingSettings& s);
nlohmann::json params_json(const gpu::PipelineParams& p);
void read_source(const nlohmann::json& j, SourceSettings& s);
void read_processing(const nlohmann::json& j, ProcessingSettings& s);
void read_params(const nlohmann::json& j, gpu::PipelineParams& p);
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
