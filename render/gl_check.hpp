#pragma once
#include <GL/glew.h>

#include <string>

#include "app/common/check.hpp"

namespace sweepline::render {

// Throws with the GL error name if the GL error flag is set; `what` names the operation.
void check_gl(const char* what);
std::string gl_error_name(GLenum e);

}  // namespace sweepline::render
