#include "gpu/cpu/cpu_pipeline.hpp"

#include <vector>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "gpu/cpu/thread_pool.hpp"
#include "gpu/cpu/video_stage.hpp"
#include "gpu/plot_extractor.hpp"
#include "gpu/video_control.hpp"

namespace sweepline::gpu {

namespace {

class CpuPipeline final : public Pipeline {
 public:
  explicit CpuPipeline(unsigned threads) : pool_(threads) {}
  Backend backend() const override { return Backend::Cpu; }

  // Display targets are device surfaces: the CPU writes host images, which its caller uploads.
  void process(const PolarFrame& frame, const PipelineParams& params,
               const DisplayTargets* /*targets*/) override {
    validate(params, frame);
    FrameResult r;
    r.width = params.width;
    r.height = params.height;
    r.frame = result_.frame + 1;
    const ScanSetup setup = make_scan_setup(params, frame);
    const uint8_t* polar = frame.cells.data();
    if (params.video.enabled) {
      ScopedStageTimer t(r.times, "video");
      const VideoSetup vs = resolve_video(params.video, frame, stats_, sea_table_);
      cpu::video_stage(pool_, frame, vs, sea_table_, video_);
      stats_ = video_stats(sector_sums(video_.row_stats, frame.azimuths));
      polar = video_.video.data();
    }
    {
      ScopedStageTimer t(r.times, "scan");
      // The rows the frame changed are the only rows of the video (or of the frame) that
      // differ from the last call's.
      scan_conv_.run(pool_, setup, polar, params.scan, scan_, &frame.dirty);
    }
    {
      ScopedStageTimer t(r.times, "denoise");
      switch (params.denoise) {
        case DenoiseMode::None:
          denoised_ = scan_;
          break;
        case DenoiseMode::Gaussian:
          cpu::gaussian(pool_, scan_, params.gaussian_sigma, denoised_, scratch_);
          break;
        case DenoiseMode::Bilateral:
          cpu::bilateral(pool_, scan_, params.bilateral_sigma_s, params.bilateral_sigma_r,
                         denoised_, scratch_);
          break;
        case DenoiseMode::FftEnhance:
          cpu::fft_enhance(pool_, scan_, params.fft, denoised_);
          break;
        case DenoiseMode::Cfar:
          cpu::cfar_polar(pool_, frame, params.cfar_guard, params.cfar_train, params.cfar_pfa,
                          mask_);
          cfar_conv_.run(pool_, setup, mask_.data(), params.scan, denoised_);
          break;
      }
    }
    {
      ScopedStageTimer t(r.times, "threshold");
      const uint8_t t_level = params.denoise == DenoiseMode::Cfar ? 127 : params.threshold;
      cpu::threshold(pool_, denoised_, t_level, binary_);
    }
    labels_ = ImageI32();
    if (params.label_enabled) {
      ccl::LabelParams lp = params.label;
      const DisplayGeometry g = display_geometry(params, frame);
      lp.threshold = 0;
      lp.geometry = {g.radar_x, g.radar_y, g.metres_per_pixel};
      ccl::LabelResult lr;
      {
        ScopedStageTimer t(r.times, "label");
        lr = ccl::label_cpu(binary_, lp, &scan_);
      }
      r.labelled = true;
      r.count = lr.count;
      r.label_limit_exceeded = lr.limit_exceeded;
      r.components_found = lr.found;
      r.components = std::move(lr.components);
      for (const StageTime& st : lr.times) r.times.push_back({"label:" + st.stage, st.ms});
      labels_ = std::move(lr.labels);
      ScopedStageTimer t(r.times, "plots");
      LandView land;
      if (params.video.enabled && params.video.clutter_map)
        land = {video_.land.data(), video_.row_age.data(), video_.azimuths, video_.bins,
                land_words_per_row(video_.bins)};
      r.plots = plots_.extract(r.components, g, frame, params.plot, &land);
    }
    result_ = std::move(r);
  }

  const FrameResult& result() override { return result_; }
  Image8 scan_image() override { return scan_; }
  Image8 denoised_image() override { return denoised_; }
  Image8 binary_image() override { return binary_; }
  ImageI32 label_image() override { return labels_; }

 private:
  ThreadPool pool_;
  cpu::ScanConverter scan_conv_, cfar_conv_;
  FrameResult result_;
  Image8 scan_, denoised_, binary_;
  ImageI32 labels_;
  std::vector<uint16_t> scratch_;
  std::vector<uint8_t> mask_;
  cpu::VideoState video_;
  VideoStats stats_;
  std::vector<uint8_t> sea_table_;
  PlotExtractor plots_;
};

}  // namespace

std::unique_ptr<Pipeline> make_cpu_pipeline(unsigned threads) {
  return std::make_unique<CpuPipeline>(threads);
}

}  // namespace sweepline::gpu
