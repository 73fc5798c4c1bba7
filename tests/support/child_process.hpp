#pragma once
// The built `sweepline` executable run as a child process that the test watches, signals and
// waits for (servers, recorders, headless displays), its stdout and stderr in files.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace sweepline::test {

class Child {
 public:
  // Starts SWEEPLINE_EXE with `args`, stdout to `out` and stderr to `err` (created or truncated).
  Child(const std::vector<std::string>& args, const std::filesystem::path& out,
        const std::filesystem::path& err)
      : out_(out), err_(err) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> copy = args;
    std::string exe = SWEEPLINE_EXE;
    std::vector<char*> argv{exe.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, exe.c_str(), &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
  }
  // A child still running when the test ends (a failed assertion) is killed and reaped.
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0; }
  void signal(int sig) const {
    if (pid_ > 0 && !reaped_) ::kill(pid_, sig);
  }
  // Until `ready()` holds, at most `timeout_s`.
  template <class Pred>
  bool wait_until(Pred ready, double timeout_s) const {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  // Until `text` shows on stderr (the command is ready), at most `timeout_s`.
  bool wait_for_stderr(const std::string& text, double timeout_s) const {
    return wait_until([&] { return err().find(text) != std::string::npos; }, timeout_s);
  }
  // The exit status; -1 when a signal ended it (its number in *signaled, else 0 there); -2 when
  // it had not ended within timeout_s (it keeps running; the destructor kills it).
  int wait(double timeout_s, int* signaled = nullptr) {
    if (signaled) *signaled = 0;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    do {  // at least once: wait(0) asks whether it has ended
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        if (signaled && WIFSIGNALED(st)) *signaled = WTERMSIG(st);
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < end);
    return -2;
  }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  static std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  std::filesystem::path out_, err_;
  pid_t pid_ = -1;
  bool reaped_ = false;
};

}  // namespace sweepline::test
