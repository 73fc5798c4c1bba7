#version 330 core
// Shows a single-channel texture as grey, tinted by u_tint (the smoke test checks the tint).
in vec2 v_uv;
out vec4 frag_color;
uniform sampler2D u_image;
uniform vec3 u_tint;
void main() {
  float v = texture(u_image, v_uv).r;
  frag_color = vec4(v * u_tint, 1.0);
}
