#include "render/egl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glew.h>

#include <utility>

#include "app/common/check.hpp"

namespace sweepline::render {

namespace {

EGLDisplay device_display() {
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!query_devices || !platform_display) return EGL_NO_DISPLAY;
  EGLDeviceEXT devices[16];
  EGLint n = 0;
  if (!query_devices(16, devices, &n)) return EGL_NO_DISPLAY;
  auto query_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
      eglGetProcAddress("eglQueryDeviceStringEXT"));
  for (EGLint i = 0; i < n; ++i) {
    // Mesa lists software devices too; prefer a device that names a DRM/NVIDIA driver.
    const char* ext = query_string ? query_string(devices[i], EGL_EXTENSIONS) : nullptr;
    bool software = ext && std::string(ext).find("EGL_MESA_device_software") != std::string::npos;
    if (software) continue;
    EGLDisplay d = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    EGLint maj = 0, min = 0;
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &maj, &min)) return d;
  }
  return EGL_NO_DISPLAY;
}

EGLDisplay surfaceless_display() {
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!platform_display) return EGL_NO_DISPLAY;
  EGLDisplay d = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint maj = 0, min = 0;
  if (d != EGL_NO_DISPLAY && eglInitialize(d, &maj, &min)) return d;
  return EGL_NO_DISPLAY;
}

}  // namespace

EglContext::EglContext(const std::string& platform) {
  EGLDisplay d = EGL_NO_DISPLAY;
  if (platform == "auto" || platform == "device") {
    d = device_display();
    if (d != EGL_NO_DISPLAY) platform_ = "device";
  }
  if (d == EGL_NO_DISPLAY && (platform == "auto" || platform == "surfaceless")) {
    d = surfaceless_display();
    if (d != EGL_NO_DISPLAY) platform_ = "surfaceless";
  }
  SWL_CHECK(d != EGL_NO_DISPLAY, "no EGL display for platform '" + platform +
                                     "' (is an EGL vendor library installed? Mesa: libegl-mesa0)");
  display_ = d;
  SWL_CHECK(eglBindAPI(EGL_OPENGL_API), "eglBindAPI(EGL_OPENGL_API) failed");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n_configs = 0;
  eglChooseConfig(d, config_attribs, &config, 1, &n_configs);
  for (auto [maj, min] : {std::pair{4, 5}, std::pair{3, 3}}) {
    const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                  maj,
                                  EGL_CONTEXT_MINOR_VERSION,
                                  min,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL_NONE};
    context_ =
        eglCreateContext(d, n_configs ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attribs);
    if (context_) break;
  }
  if (!context_) {
    release();
    SWL_CHECK(false, "eglCreateContext failed for GL 4.5 and 3.3 core");
  }
  make_current();
  load_gl_functions();
}

EglContext::~EglContext() {
  release();
}

EglContext::EglContext(EglContext&& o) noexcept
    : display_(std::exchange(o.display_, nullptr)),
      context_(std::exchange(o.context_, nullptr)),
      platform_(std::move(o.platform_)) {}

EglContext& EglContext::operator=(EglContext&& o) noexcept {
  if (this != &o) {
    release();
    display_ = std::exchange(o.display_, nullptr);
    context_ = std::exchange(o.context_, nullptr);
    platform_ = std::move(o.platform_);
  }
  return *this;
}

void EglContext::release() noexcept {
  if (display_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
  display_ = nullptr;
  context_ = nullptr;
}

void EglContext::make_current() {
  SWL_CHECK(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_),
            "eglMakeCurrent failed (EGL_KHR_surfaceless_context missing?)");
}

std::string EglContext::renderer() const {
  auto s = glGetString(GL_RENDERER);
  return s ? reinterpret_cast<const char*>(s) : "";
}

std::string EglContext::version() const {
  auto s = glGetString(GL_VERSION);
  return s ? reinterpret_cast<const char*>(s) : "";
}

void load_gl_functions() {
  // glewInit() loads the context's functions first and only then looks for a GLX display, which
  // an EGL context lacks: GLEW_ERROR_NO_GLX_DISPLAY after that point means the GL part worked.
  glewExperimental = GL_TRUE;
  GLenum err = glewInit();
  SWL_CHECK(err == GLEW_OK || err == GLEW_ERROR_NO_GLX_DISPLAY,
            std::string("GLEW failed to load GL functions: ") +
                reinterpret_cast<const char*>(glewGetErrorString(err)));
  glGetError();  // GLEW can leave GL_INVALID_ENUM behind on core profiles
}

}  // namespace sweepline::render
