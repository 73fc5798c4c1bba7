#pragma once
// A headless OpenGL context through EGL: the NVIDIA device platform where a GPU is present,
// Mesa's surfaceless platform (llvmpipe) otherwise. Rendering goes to framebuffer objects.
#include <string>

namespace sweepline::render {

class EglContext {
 public:
  // Tries GL 4.5 core, then 3.3 core. `platform`: "auto", "device" or "surfaceless".
  explicit EglContext(const std::string& platform = "auto");
  ~EglContext();
  EglContext(EglContext&& o) noexcept;
  EglContext& operator=(EglContext&& o) noexcept;
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  void make_current();
  const std::string& platform() const { return platform_; }
  std::string renderer() const;  // GL_RENDERER
  std::string version() const;   // GL_VERSION

 private:
  void release() noexcept;
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string platform_;
};

// Loads GL entry points for the current context (GLEW without GLX, so EGL contexts work).
void load_gl_functions();

}  // namespace sweepline::render
