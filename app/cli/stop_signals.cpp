#include "app/cli/stop_signals.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "app/common/check.hpp"

namespace sweepline::cli {

namespace {

sigset_t stop_set() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}

}  // namespace

StopSignals::StopSignals() {
  const sigset_t set = stop_set();
  SWL_CHECK(pthread_sigmask(SIG_BLOCK, &set, &saved_mask_) == 0, "cannot block SIGINT/SIGTERM");
  signal_fd_ = net::UniqueFd(::signalfd(-1, &set, SFD_CLOEXEC));
  wake_fd_ = net::UniqueFd(::eventfd(0, EFD_CLOEXEC));
  if (!signal_fd_.valid() || !wake_fd_.valid()) {
    const std::string why = std::strerror(errno);
    pthread_sigmask(SIG_SETMASK, &saved_mask_, nullptr);
    throw_error(__FILE__, __LINE__, "cannot watch SIGINT/SIGTERM: " + why);
  }
  watcher_ = std::thread([this] { watch(); });
}

StopSignals::~StopSignals() {
  const uint64_t one = 1;
  if (::write(wake_fd_.get(), &one, sizeof one) < 0) {
    // Cannot happen with a valid eventfd; the join below would then wait for a signal.
  }
  if (watcher_.joinable()) watcher_.join();
  // A signal that arrives from here on gets the default action, as before this object.
  pthread_sigmask(SIG_SETMASK, &saved_mask_, nullptr);
}

const char* StopSignals::signal_name() const {
  switch (signo_.load()) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "";
  }
}

void StopSignals::watch() {
  pollfd fds[2] = {{signal_fd_.get(), POLLIN, 0}, {wake_fd_.get(), POLLIN, 0}};
  for (;;) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    signalfd_siginfo info{};
    if (::read(signal_fd_.get(), &info, sizeof info) != ssize_t(sizeof info)) continue;
    const int sig = int(info.ssi_signo);
    if (!stop_.load()) {
      signo_.store(sig);
      stop_.store(true);
      spdlog::info("{}: stopping (again to quit at once)", sig == SIGINT ? "SIGINT" : "SIGTERM");
      continue;
    }
    // The second signal: the default action, now, from this thread (the only one that
    // unblocks it), as if nothing had been watching.
    ::signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    ::raise(sig);
    return;
  }
}

}  // namespace sweepline::cli
