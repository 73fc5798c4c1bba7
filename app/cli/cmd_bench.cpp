// `sweepline bench`: runs every benchmark built beside the executable (build/bench/bench_*), the
// peers (OpenCV, CuPy, SciPy through scripts/bench-peers.py) on the images our labelling benchmark
// saved, and the report (scripts/bench-report.py: RESULTS.md, results.json, PNG charts).
#include <spdlog/spdlog.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/common/check.hpp"

namespace sweepline::cli {

namespace fs = std::filesystem;

namespace {

struct BenchOptions {
  std::string out = "bench-results";
  std::string only;  // run just this benchmark executable (e.g. bench_ccl)
  bool peers = true;
  bool report = true;
  std::string report_md;  // where RESULTS.md goes (default: OUT/RESULTS.md)
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command, echoing it; returns its exit status.
int run_step(const std::string& label, const std::string& cmd) {
  std::printf("\n== %s\n$ %s\n", label.c_str(), cmd.c_str());
  std::fflush(stdout);
  auto t0 = std::chrono::steady_clock::now();
  int st = std::system(cmd.c_str());
  int rc = st == -1 ? -1 : WEXITSTATUS(st);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("== %s: %s in %.1f s\n", label.c_str(), rc == 0 ? "ok" : "FAILED", s);
  return rc;
}

fs::path source_dir() {
#ifdef SWEEPLINE_SOURCE_DIR
  return fs::path(SWEEPLINE_SOURCE_DIR);
#else
  return fs::current_path();
#endif
}

int run_bench(const BenchOptions& opt) {
  const fs::path exe_dir = fs::canonical("/proc/self/exe").parent_path();
  const fs::path bench_dir = exe_dir / "bench";
  SWL_CHECK(fs::is_directory(bench_dir), "no benchmarks built beside " + exe_dir.string() +
                                             " (configure with -DSWEEPLINE_BENCH=ON)");

  std::vector<fs::path> benches;
  for (const auto& e : fs::directory_iterator(bench_dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.rfind("bench_", 0) == 0 &&
        name.find('.') == std::string::npos && (opt.only.empty() || name == opt.only))
      benches.push_back(e.path());
  }
  // bench_ccl first: it saves the images the peers (bench_npp, bench-peers.py) label.
  std::sort(benches.begin(), benches.end(), [](const fs::path& a, const fs::path& b) {
    auto rank = [](const fs::path& p) { return p.filename() == "bench_ccl" ? 0 : 1; };
    return std::pair(rank(a), a.filename().string()) < std::pair(rank(b), b.filename().string());
  });
  SWL_CHECK(!benches.empty(),
            opt.only.empty() ? "no benchmark executables in " + bench_dir.string()
                             : "--only: no benchmark '" + opt.only + "' in " + bench_dir.string());
  // Only now that there is something to run (the folder's parent was checked while parsing).
  fs::create_directories(opt.out);
  const fs::path out = fs::absolute(opt.out);
  const fs::path images = out / "images";

  int failures = 0;
  for (const auto& b : benches) {
    const std::string name = b.filename().string();
    std::string cmd = quote(b.string());
    if (name == "bench_cpu") {
      cmd += " --benchmark_format=console --benchmark_out_format=json --benchmark_out=" +
             quote((out / "bench_cpu.json").string());
    } else {
      cmd += " --json " + quote((out / (name + ".json")).string());
      if (name == "bench_ccl") cmd += " --save-images " + quote(images.string());
      if (name == "bench_npp") cmd += " --images " + quote(images.string());
    }
    cmd += " 2>&1 | tee " + quote((out / (name + ".log")).string()) + "; exit ${PIPESTATUS[0]}";
    if (run_step(name, "bash -c " + quote(cmd)) != 0) ++failures;
  }

  const fs::path scripts = source_dir() / "scripts";
  if (opt.peers && fs::is_directory(images) && fs::exists(scripts / "bench-peers.py")) {
    if (run_step("peers (OpenCV, CuPy, SciPy)",
                 "python3 " + quote((scripts / "bench-peers.py").string()) + " " +
                     quote(images.string()) + " " + quote((out / "bench_ccl.json").string()) +
                     " --json " + quote((out / "peers.json").string())) != 0)
      ++failures;
  }
  if (opt.report && fs::exists(scripts / "bench-report.py")) {
    std::string md = opt.report_md.empty() ? (out / "RESULTS.md").string() : opt.report_md;
    if (run_step("report", "python3 " + quote((scripts / "bench-report.py").string()) + " --in " +
                               quote(out.string()) + " --md " + quote(md)) != 0)
      ++failures;
  }
  std::printf("\nbench: %zu benchmark(s) run, %d step(s) failed; results in %s\n", benches.size(),
              failures, out.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace

Command add_bench_command(CLI::App& parent) {
  auto opt = std::make_shared<BenchOptions>();
  Command c;
  c.app = parent.add_subcommand(
      "bench", "Run the benchmarks built beside the executable, the peers and the report");
  c.app->add_option("--out", opt->out, "Folder for JSON, logs, saved images and charts")
      ->check(output_folder_check())
      ->capture_default_str();
  c.app->add_option("--only", opt->only,
                    "Run only this benchmark (bench_pipeline, bench_ccl, bench_cpu)");
  c.app->add_flag("!--no-peers", opt->peers, "Skip the peer libraries");
  c.app->add_flag("!--no-report", opt->report, "Skip the report and charts");
  c.app
      ->add_option("--report", opt->report_md, "Where to write RESULTS.md (default OUT/RESULTS.md)")
      ->check(output_file_check());
  c.run = [opt] { return run_bench(*opt); };
  return c;
}

}  // namespace sweepline::cli
