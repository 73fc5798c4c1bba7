#version 330 core
// The PPI: maps each screen pixel to the world (metres east/north of the radar), samples the
// display textures there and composes the layers over the background with the palette.
// Mirrors render/ppi_style.cpp (palette_colour, echo_alpha), which the pixel tests use.
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_scan;
uniform sampler2D u_denoised;
uniform sampler2D u_binary;
uniform sampler2D u_labels;
uniform sampler2D u_glow;  // persistence buffer of the scan layer (real-time afterglow)

uniform float u_fb_height;      // to turn gl_FragCoord into top-left screen pixels
// The view (render/ppi_view.hpp) as an affine map from top-left screen pixels to the world
// (east, north of the radar): world = origin + x * dx + y * dy. It carries the rotation of the
// picture (orientation), the range scale and the radar's place on the screen.
uniform vec2 u_s2w_origin;
uniform vec2 u_s2w_dx;
uniform vec2 u_s2w_dy;
uniform vec2 u_tex_origin;      // world point at the textures' centre
uniform float u_tex_mpp;
uniform vec2 u_tex_size;
uniform float u_range_m;
uniform bool u_have_data;

uniform int u_palette;          // 0 green, 1 amber, 2 multi, 3 imo
uniform float u_brightness;
uniform float u_gain;
uniform bool u_land;             // level 1 of the scan layer is land (the video stage is on)
uniform vec3 u_background;
uniform vec3 u_outside;
uniform vec4 u_opacity;         // per layer (scan, denoised, binary, labels); 0 = hidden
uniform int u_afterglow;        // 0 off, 1 real time, 2 per sweep
uniform float u_sweep_deg;
uniform float u_sweep_floor;

vec3 palette(float v) {
  float v3 = v * v * v;
  if (u_palette == 0) return vec3(0.05, 0.85, 0.25) * v + vec3(0.55, 0.15, 0.45) * v3;
  if (u_palette == 1) return vec3(1.0, 0.55, 0.05) * v + vec3(0.0, 0.35, 0.45) * v3;
  if (u_palette == 2) {
    vec3 stops[5] = vec3[5](vec3(0.0, 0.2, 1.0), vec3(0.0, 0.9, 1.0), vec3(0.1, 1.0, 0.2),
                            vec3(1.0, 0.95, 0.0), vec3(1.0, 0.1, 0.05));
    float t = v * 4.0;
    int i = min(int(t), 3);
    return mix(stops[i], stops[i + 1], t - float(i));
  }
  return vec3(1.0, 0.86, 0.0);
}

float echo_alpha(float v) {
  if (u_palette == 3) return smoothstep(0.18, 0.30, v);
  if (u_palette == 2) return clamp((v - 0.06) * 6.0, 0.0, 1.0);
  return 1.0;
}

void main() {
  vec2 sp = vec2(gl_FragCoord.x, u_fb_height - gl_FragCoord.y);
  vec2 w = u_s2w_origin + sp.x * u_s2w_dx + sp.y * u_s2w_dy;
  if (length(w) > u_range_m) {
    frag_color = vec4(u_outside, 1.0);
    return;
  }
  vec3 col = u_background;
  vec2 tp = vec2((w.x - u_tex_origin.x) / u_tex_mpp, (u_tex_origin.y - w.y) / u_tex_mpp) + 0.5 * u_tex_size;
  vec2 uv = tp / u_tex_size;
  if (u_have_data && all(greaterThanEqual(uv, vec2(0.0))) && all(lessThan(uv, vec2(1.0)))) {
    float fade = 1.0;
    if (u_afterglow == 2) {
      float b = degrees(atan(w.x, w.y));
      float age = mod(u_sweep_deg - b + 720.0, 360.0) / 360.0;
      fade = mix(1.0, u_sweep_floor, age);
    }
    // Level 1 of the processed video is land (gpu/video_math.hpp): drawn in its own colour.
    float s = texture(u_scan, uv).r;
    float land = u_land ? step(0.5 / 255.0, s) * step(s, 1.5 / 255.0) : 0.0;
    col = mix(col, vec3(0.42, 0.32, 0.16) * u_brightness, land * max(u_opacity.x, u_opacity.y));
    if (u_opacity.x > 0.0 && land < 0.5) {
      float v = (u_afterglow == 1 ? texture(u_glow, uv).r : texture(u_scan, uv).r);
      v = clamp(v * u_gain * fade, 0.0, 1.0);
      col = mix(col, palette(v) * u_brightness + u_background * (1.0 - v), u_opacity.x * echo_alpha(v));
    }
    if (u_opacity.y > 0.0) {
      float v = clamp(texture(u_denoised, uv).r * u_gain * fade, 0.0, 1.0);
      col = mix(col, palette(v) * u_brightness + u_background * (1.0 - v), u_opacity.y * echo_alpha(v));
    }
    if (u_opacity.z > 0.0) {
      float b = texture(u_binary, uv).r;
      col = mix(col, vec3(0.25, 0.75, 1.0) * u_brightness, u_opacity.z * b);
    }
    if (u_opacity.w > 0.0) {
      vec4 l = texture(u_labels, uv);
      col = mix(col, l.rgb * u_brightness, u_opacity.w * l.a);
    }
  }
  frag_color = vec4(col, 1.0);
}
