// The CUDA pipeline: one stream, buffers sized once per shape, dirty-row upload from pinned
// memory, CUDA events around every stage; nothing in process() waits for the device (result()
// and the image read-backs do).
#include "gpu/cuda/cuda_pipeline.hpp"
#include "gpu/cuda/host_copy.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "app/common/check.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "gpu/cuda/ccl_cuda.hpp"
#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/detect_kernels.hpp"
#include "gpu/cuda/device_probe.hpp"
#include "gpu/cuda/fft_kernels.hpp"
#include "gpu/cuda/filter_kernels.hpp"
#include "gpu/cuda/scan_kernels.hpp"
#include "gpu/cuda/video_kernels.hpp"
#include "gpu/plot_extractor.hpp"
#include "gpu/video_control.hpp"

namespace sweepline::gpu::cuda {

namespace {

constexpr int kMaxEvents = 12;

class CudaPipelineImpl final : public CudaPipeline {
 public:
  explicit CudaPipelineImpl(LabellerFactory labellers) : labeller_(std::move(labellers)) {
    for (int i = 0; i < kMaxEvents; ++i) events_.emplace_back();
  }
  ~CudaPipelineImpl() override {
    // Buffers are freed by their owners; make sure no kernel still uses them.
    SWL_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(stream_.get()));
  }

  Backend backend() const override { return Backend::Cuda; }
  cudaStream_t stream() const override { return stream_.get(); }
  const uint8_t* d_scan() const override { return d_scan_.get(); }
  const uint8_t* d_denoised() const override { return d_den_.get(); }
  const uint8_t* d_binary() const override { return d_bin_.get(); }

  void process(const PolarFrame& frame, const PipelineParams& params,
               const DisplayTargets* display) override {
    const DisplayTargets targets = display ? *display : DisplayTargets{};  // 0: not wanted
    validate(params, frame);
    finish_pending();  // the previous frame's times, before its events are reused
    const int W = params.width, H = params.height;
    const size_t pixels = size_t(W) * size_t(H);
    w_ = W;
    h_ = H;
    d_scan_.resize(pixels);
    d_den_.resize(pixels);
    d_bin_.resize(pixels);
    if (frame.azimuths != az_ || frame.range_bins != bins_) {
      d_polar_.resize(frame.cells.size());
      d_mask_.resize(frame.cells.size());
      d_pyr_.resize(std::max<size_t>(1, az_pyramid_cells(frame.azimuths, frame.range_bins)));
      h_polar_.resize(frame.cells.size());
      resize_video_state(frame);
      az_ = frame.azimuths;
      bins_ = frame.range_bins;
      polar_valid_ = false;
    }
    cudaStream_t s = stream_.get();
    FrameResult r;
    r.width = W;
    r.height = H;
    r.frame = frame_count_ + 1;
    stages_.clear();
    stage_upload(frame);  // host copy into pinned memory: before the frame's first event
    SWL_CUDA_CHECK(cudaEventRecord(events_[0].get(), s));

    const ScanSetup setup = make_scan_setup(params, frame);
    enqueue_upload();
    // The copy alone as a sub-stage ("upload:copy"; the stage also holds the texture updates).
    copy_timed_ = parts_ > 0;
    if (copy_timed_) SWL_CUDA_CHECK(cudaEventRecord(copy_done_.get(), s));
    mark("upload");

    const uint8_t* d_src = d_polar_.get();
    if (params.video.enabled) {
      video(params.video, frame);
      mark("video");
      d_src = video_.video.get();
    }
    update_polar_texture(params.scan, setup, d_src);
    scan(setup, d_src, params.scan, Out8{d_scan_.get(), targets.scan});
    mark("scan");

    const Out8 den{d_den_.get(), targets.denoised};
    switch (params.denoise) {
      case DenoiseMode::None:
        launch_copy(d_scan_.get(), den, W, H, s);
        break;
      case DenoiseMode::Gaussian: {
        const std::vector<float> w = gaussian_weights(params.gaussian_sigma);
        launch_gaussian(d_scan_.get(), den, W, H, w, s);  // tensor cores for large radii
        break;
      }
      case DenoiseMode::Bilateral: {
        const std::vector<float> ws = bilateral_spatial_weights(params.bilateral_sigma_s);
        const std::array<float, 256> wr = bilateral_range_weights(params.bilateral_sigma_r);
        launch_bilateral(d_scan_.get(), den, W, H, ws, wr, s);
        break;
      }
      case DenoiseMode::FftEnhance:
        launch_fft_enhance(d_scan_.get(), den, W, H, params.fft, s);
        break;
      case DenoiseMode::Cfar:
        launch_cfar(d_polar_.get(), d_mask_.get(), az_, bins_, params.cfar_guard, params.cfar_train,
                    params.cfar_pfa, s);
        scan(setup, d_mask_.get(), params.scan, den);
        break;
    }
    mark("denoise");

    const uint8_t t = params.denoise == DenoiseMode::Cfar ? 127 : params.threshold;
    launch_threshold(d_den_.get(), Out8{d_bin_.get(), targets.binary}, W, H, t, s);
    mark("threshold");

    labels_pending_ = false;
    StageTimes host_times;
    if (params.label_enabled) {
      label(frame, params, r, host_times);
      // What the plot extractor needs once the components are in (finish_pending).
      plot_geometry_ = display_geometry(params, frame);
      plot_params_ = params.plot;
      plot_video_ = params.video.enabled;
      plot_frame_.azimuths = frame.azimuths;
      plot_frame_.range_bins = frame.range_bins;
      plot_frame_.range_m = frame.range_m;
      plot_frame_.dirty = frame.dirty;
      plot_frame_.rotation = frame.rotation;
      plot_frame_.sweep_azimuth_deg = frame.sweep_azimuth_deg;
      plot_frame_.row_time_s = frame.row_time_s;
    }
    host_times_ = std::move(host_times);
    result_ = std::move(r);
    pending_ = true;
    ++frame_count_;
  }

  const FrameResult& result() override {
    finish_pending();
    return result_;
  }

  bool result_ready() override {
    if (!pending_) return true;
    const cudaError_t e = cudaEventQuery(events_[stages_.size()].get());
    if (e == cudaErrorNotReady) return false;
    SWL_CUDA_CHECK(e);
    return true;
  }

  // The device labels stay valid until the next process(): colour them through the identities.
  void colour_labels(const std::vector<int32_t>& ids, const DisplayTargets& targets) override {
    if (!targets.label_colour) return;
    finish_pending();
    SWL_CHECK(result_.labelled, "label colours: the last frame was not labelled");
    SWL_CHECK(ids.size() <= size_t(std::numeric_limits<int>::max()),
              "label colours: too many identities");
    cudaStream_t s = stream_.get();
    // The pinned table may still feed the previous call's copy.
    SWL_CUDA_CHECK(cudaEventSynchronize(ids_copied_.get()));
    const size_t n = std::max<size_t>(ids.size(), 1);
    if (n > h_ids_.size()) {  // grown by doubling: a busy scene's count changes every frame
      const size_t cap = std::bit_ceil(n);
      h_ids_.resize(cap);
      d_ids_.resize(cap);
    }
    h_ids_.get()[0] = 0;
    std::copy(ids.begin(), ids.end(), h_ids_.get());
    SWL_CUDA_CHECK(cudaMemcpyAsync(d_ids_.get(), h_ids_.get(), n * sizeof(int32_t),
                                   cudaMemcpyHostToDevice, s));
    SWL_CUDA_CHECK(cudaEventRecord(ids_copied_.get(), s));
    launch_label_colour(labeller_.d_labels(), d_ids_.get(), int(ids.size()), targets.label_colour,
                        w_, h_, s);
  }

  Image8 scan_image() override { return download8(d_scan_); }
  Image8 denoised_image() override { return download8(d_den_); }
  Image8 binary_image() override { return download8(d_bin_); }
  ImageI32 label_image() override {
    finish_pending();
    if (!result_.labelled) return ImageI32();
    ImageI32 img(w_, h_);
    SWL_CUDA_CHECK(cudaMemcpyAsync(img.pixels.data(), labeller_.d_labels(),
                                   img.size() * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                   stream_.get()));
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return img;
  }

 private:
  void scan(const ScanSetup& setup, const uint8_t* d_src, ScanMode mode, Out8 out) {
    // A table build (first frame, zoom, pan, resize) is its own stage in the frame's times.
    if (mode == ScanMode::MaxHold && MaxHoldTable::usable(setup) &&
        max_hold_.prepare(setup, stream_.get())) {
      mark("scan table");
      if (++table_builds_ > 1)
        spdlog::debug(
            "max-hold table rebuilt ({}): {}x{} px, {}x{} cells, origin {:.9g},{:.9g}, "
            "step {:.9g}, footprint {:.9g}",
            table_builds_, setup.width, setup.height, setup.azimuths, setup.bins, setup.east0,
            setup.north0, setup.step, setup.footprint);
    }
    if (mode == ScanMode::MaxHold)
      max_hold_.scan(setup, d_src, d_pyr_.get(), out, stream_.get(),
                     d_src == tex_src_ && range_tex_valid_ ? &range_tex_ : nullptr);
    else
      launch_scan(
          setup, d_src, mode, out, d_pyr_.get(), stream_.get(),
          mode == ScanMode::Bilinear && d_src == tex_src_ && tex_valid_ ? &polar_tex_ : nullptr);
  }

  // The bilinear scan reads the frame through its CUDA array (PolarTexture, tex2Dgather), the
  // max-hold scan through another with the frame's range maxima (its arithmetic route): the
  // rows uploaded this frame are copied into the mode's array on the device, all rows when the
  // array is new or missed a frame's rows (another mode ran); part of the "upload" stage.
  // `d_src` is the polar image the scan reads (the raw frame or the processed video): the same
  // rows of it changed this frame, and a change of source means a full copy.
  void update_polar_texture(ScanMode mode, const ScanSetup& setup, const uint8_t* d_src) {
    if (d_src != tex_src_) {
      tex_valid_ = range_tex_valid_ = false;
      tex_src_ = d_src;
    }
    update_texture(polar_tex_, tex_valid_, mode == ScanMode::Bilinear);
    update_texture(range_tex_, range_tex_valid_,
                   mode == ScanMode::MaxHold && max_hold_.takes_range_texture(setup));
  }
  void update_texture(PolarTexture& tex, bool& valid, bool wanted) {
    if (!wanted || !PolarTexture::usable(az_, bins_, tex.has_range_max())) {
      if (parts_ > 0) valid = false;
      return;
    }
    cudaStream_t s = stream_.get();
    if (!valid || tex.azimuths() != az_ || tex.bins() != bins_) {
      tex.update(tex_src_, az_, bins_, 0, az_, s);
    } else {
      const size_t b = size_t(bins_);
      for (int i = 0; i < parts_; ++i)
        tex.update(tex_src_, az_, bins_, int(parts_off_[i] / b), int(parts_n_[i] / b), s);
    }
    valid = true;
  }

  // The video stage over the rows uploaded this frame (all of them after a reset), with the
  // statistics the automatic controls use copied back for the next frame.
  void video(const VideoParams& p, const PolarFrame& frame) {
    cudaStream_t s = stream_.get();
    const VideoSetup su = resolve_video(p, frame, stats_, sea_table_);
    SWL_CUDA_CHECK(cudaMemcpyAsync(video_.sea.get(), sea_table_.data(), sea_table_.size(),
                                   cudaMemcpyHostToDevice, s));
    const VideoBuffers b = video_.buffers(d_polar_.get());
    int first = 0, count = 0;
    if (parts_ > 0) {
      first = int(parts_off_[0] / size_t(bins_));
      for (int i = 0; i < parts_; ++i) count += int(parts_n_[i] / size_t(bins_));
    }
    launch_video(su, b, first, count, s);
    if (su.clutter_map) {
      // The land words for the plots' near-land flags: a bit per 8 cells, copied whole (256 KB
      // at 4096 x 4096) behind the stage; read with the components in mark().
      launch_land_words(video_.video.get(), frame.azimuths, frame.range_bins, first, count,
                        video_.land.get(), s);
      SWL_CUDA_CHECK(cudaMemcpyAsync(h_land_.get(), video_.land.get(),
                                     video_.land.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                     s));
      // The row ages after the stage counted this frame (as the CPU's after video_stage).
      SWL_CUDA_CHECK(cudaMemcpyAsync(h_row_age_.get(), video_.row_age.get(), size_t(frame.azimuths),
                                     cudaMemcpyDeviceToHost, s));
    }
    land_valid_ = su.clutter_map;
    SWL_CUDA_CHECK(cudaMemcpyAsync(h_sector_stats_.get(), video_.sector_stats.get(),
                                   video_.sector_stats.size() * sizeof(uint64_t),
                                   cudaMemcpyDeviceToHost, s));
    stats_pending_ = true;
  }
  // A new frame shape: the video state starts empty (no history, no statistics).
  void resize_video_state(const PolarFrame& frame) {
    cudaStream_t s = stream_.get();
    video_.reset(frame.azimuths, frame.range_bins, s);
    h_sector_stats_.resize(video_.sector_stats.size());
    h_land_.resize(video_.land.size());
    h_row_age_.resize(size_t(frame.azimuths));
    land_azimuths_ = frame.azimuths;
    land_bins_ = frame.range_bins;
    land_valid_ = false;
    stats_ = VideoStats{};
    stats_pending_ = false;
    plots_.reset();
    tex_src_ = nullptr;
  }

  void mark(const char* stage) {
    const size_t i = stages_.size() + 1;
    SWL_CHECK(i < events_.size(), "cuda pipeline: too many stages");
    SWL_CUDA_CHECK(cudaEventRecord(events_[i].get(), stream_.get()));
    stages_.push_back(stage);
  }

  // Only the rows changed since the last frame travel, from pinned memory, asynchronously. The
  // host copy into the pinned buffer happens before the frame's first event (so "upload" times
  // the transfer, not the host memcpy); the copies are enqueued after it.
  void stage_upload(const PolarFrame& frame) {
    parts_ = 0;
    RowSpan span = frame.dirty;
    const bool span_ok = span.first >= 0 && span.first < az_ && span.count >= 0;
    if (!polar_valid_ || !span_ok || span.count >= az_) span = {0, az_};
    if (span.count == 0) return;
    // The pinned buffer may still feed the previous frame's copy.
    SWL_CUDA_CHECK(cudaEventSynchronize(upload_done_.get()));
    const size_t row_bytes = size_t(bins_);
    auto stage_rows = [&](int first, int count) {
      const size_t off = size_t(first) * row_bytes, n = size_t(count) * row_bytes;
      copy_for_upload(h_polar_.get() + off, frame.cells.data() + off, n);
      parts_off_[parts_] = off;
      parts_n_[parts_] = n;
      ++parts_;
      uploaded_rows_ += uint64_t(count);
    };
    const int first_part = std::min(span.count, az_ - span.first);
    stage_rows(span.first, first_part);
    if (span.count > first_part) stage_rows(0, span.count - first_part);
  }

  void enqueue_upload() {
    if (parts_ == 0) return;
    for (int i = 0; i < parts_; ++i)
      SWL_CUDA_CHECK(cudaMemcpyAsync(d_polar_.get() + parts_off_[i], h_polar_.get() + parts_off_[i],
                                     parts_n_[i], cudaMemcpyHostToDevice, stream_.get()));
    SWL_CUDA_CHECK(cudaEventRecord(upload_done_.get(), stream_.get()));
    polar_valid_ = true;
  }

  // Labelling on the device (gpu/cuda/ccl_cuda.hpp), enqueued on the same stream; the
  // components are fetched (a host wait) only when result() is asked for.
  void label(const PolarFrame& frame, const PipelineParams& params, FrameResult& r, StageTimes&) {
    ccl::LabelParams lp = params.label;
    const DisplayGeometry g = display_geometry(params, frame);
    lp.threshold = 0;
    lp.geometry = {g.radar_x, g.radar_y, g.metres_per_pixel};
    labeller_.label(d_bin_.get(), d_scan_.get(), w_, h_, lp, stream_.get());
    mark("label");
    r.labelled = true;
    labels_pending_ = true;
  }

  void finish_pending() {
    if (!pending_) return;
    pending_ = false;
    const size_t last = stages_.size();
    SWL_CUDA_CHECK(cudaEventSynchronize(events_[last].get()));
    StageTimes times;
    for (size_t i = 0; i < stages_.size(); ++i) {
      float ms = 0;
      SWL_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i].get(), events_[i + 1].get()));
      times.push_back({stages_[i], double(ms)});
    }
    if (copy_timed_) {
      float ms = 0;
      SWL_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[0].get(), copy_done_.get()));
      times.push_back({"upload:copy", double(ms)});
    }
    for (StageTime& st : host_times_) times.push_back(std::move(st));
    host_times_.clear();
    if (labels_pending_) {
      labels_pending_ = false;
      ccl::LabelResult lr = labeller_.fetch(false);
      result_.count = lr.count;
      result_.label_limit_exceeded = lr.limit_exceeded;
      result_.components_found = lr.found;
      result_.components = std::move(lr.components);
      for (const StageTime& st : lr.times) times.push_back({"label:" + st.stage, st.ms});
      ScopedStageTimer t(times, "plots");
      LandView land;
      if (land_valid_ && plot_video_)
        land = {h_land_.get(), h_row_age_.get(), land_azimuths_, land_bins_,
                land_words_per_row(land_bins_)};
      result_.plots =
          plots_.extract(result_.components, plot_geometry_, plot_frame_, plot_params_, &land);
    }
    if (stats_pending_) {
      stats_pending_ = false;
      SectorSums sums;
      sums.v.assign(h_sector_stats_.get(), h_sector_stats_.get() + video_.sector_stats.size());
      stats_ = video_stats(sums);
    }
    result_.times = std::move(times);
  }

  Image8 download8(const DeviceBuffer<uint8_t>& d) {
    Image8 img(w_, h_);
    if (d.get() == nullptr || img.empty()) return Image8();
    SWL_CUDA_CHECK(cudaMemcpyAsync(img.pixels.data(), d.get(), img.size(), cudaMemcpyDeviceToHost,
                                   stream_.get()));
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return img;
  }

  Stream stream_;
  std::vector<Event> events_;
  Event upload_done_{cudaEventDisableTiming};
  // The label identities for colour_labels(): pinned copy, device table, and the copy's event.
  PinnedBuffer<int32_t> h_ids_;
  DeviceBuffer<int32_t> d_ids_;
  Event ids_copied_{cudaEventDisableTiming};
  Event copy_done_;          // after this frame's host-to-device copies
  bool copy_timed_ = false;  // copy_done_ was recorded for the pending frame
  std::vector<const char*> stages_;
  StageTimes host_times_;
  DeviceBuffer<uint8_t> d_polar_, d_mask_, d_pyr_, d_scan_, d_den_, d_bin_;
  // The video stage (video_kernels.hpp) and what it keeps between frames.
  VideoDeviceState video_;
  PinnedBuffer<uint64_t> h_sector_stats_;
  // The land words of the last video stage (valid when it ran with the clutter map).
  PinnedBuffer<uint32_t> h_land_;
  PinnedBuffer<uint8_t> h_row_age_;
  int land_azimuths_ = 0, land_bins_ = 0;
  bool land_valid_ = false;
  bool plot_video_ = false;  // the pending frame's plots come after the video stage
  std::vector<uint8_t> sea_table_;
  VideoStats stats_;
  bool stats_pending_ = false;
  const uint8_t* tex_src_ = nullptr;  // the image the polar textures hold
  PlotExtractor plots_;
  DisplayGeometry plot_geometry_;
  PlotParams plot_params_;
  PolarFrame plot_frame_;  // the pending frame's shape, sweep and row times (no cells)
  PinnedBuffer<uint8_t> h_polar_;
  MaxHoldTable max_hold_;
  PolarTexture polar_tex_;
  bool tex_valid_ = false;  // polar_tex_ holds the frame in d_polar_
  PolarTexture range_tex_{true};
  bool range_tex_valid_ = false;  // range_tex_ holds the frame in d_polar_
  uint64_t table_builds_ = 0;
  int az_ = 0, bins_ = 0, w_ = 0, h_ = 0;
  bool polar_valid_ = false, pending_ = false;
  int parts_ = 0;  // staged upload copies (a wrapped dirty span makes two)
  size_t parts_off_[2] = {0, 0}, parts_n_[2] = {0, 0};
  uint64_t frame_count_ = 0, uploaded_rows_ = 0;
  FrameResult result_;
  bool labels_pending_ = false;
  SelectedLabeller labeller_;  // the labeller for params.label.algorithm (ccl_cuda.hpp)
};

}  // namespace

std::unique_ptr<CudaPipeline> make_cuda_pipeline(LabellerFactory labellers) {
  const std::string reason = device_probe();
  SWL_CHECK(reason.empty(), "the cuda pipeline backend is unavailable: " + reason);
  return std::make_unique<CudaPipelineImpl>(std::move(labellers));
}

}  // namespace sweepline::gpu::cuda
