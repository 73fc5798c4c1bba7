#version 330 core
// Real-time afterglow: the persistence buffer keeps the brighter of the new echo and the old
// glow decayed by this frame's factor exp(-rate * dt). Float target so faint trails keep fading
// instead of sticking at a rounding step.
in vec2 v_uv;
out vec4 frag_color;
uniform sampler2D u_current;
uniform sampler2D u_previous;
uniform float u_decay;
void main() {
  float v = max(texture(u_current, v_uv).r, texture(u_previous, v_uv).r * u_decay);
  frag_color = vec4(v, 0.0, 0.0, 1.0);
}
