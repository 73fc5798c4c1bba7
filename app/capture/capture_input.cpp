// One opened capture input (see capture_internal.hpp): regular files and pipes alike.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "app/capture/capture_internal.hpp"
#include "app/common/check.hpp"

namespace sweepline::capture::detail {
namespace {

// A pipe's stream: the bytes format detection already read, then the rest of the pipe.
struct PipeCookie {
  std::vector<uint8_t> head;
  size_t head_pos = 0;
  int fd = -1;
};

ssize_t pipe_read(void* c, char* buf, size_t size) {
  auto* p = static_cast<PipeCookie*>(c);
  if (p->head_pos < p->head.size()) {
    const size_t n = std::min(size, p->head.size() - p->head_pos);
    std::memcpy(buf, p->head.data() + p->head_pos, n);
    p->head_pos += n;
    return static_cast<ssize_t>(n);
  }
  for (;;) {
    const ssize_t n = ::read(p->fd, buf, size);
    if (n >= 0 || errno != EINTR) return n;
  }
}

int pipe_close(void* c) {
  auto* p = static_cast<PipeCookie*>(c);
  const int rc = p->fd >= 0 ? ::close(p->fd) : 0;
  delete p;
  return rc;
}

}  // namespace

CaptureInput::CaptureInput(const std::string& path)
    : CaptureInput(path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                               : ::open(path.c_str(), O_RDONLY | O_CLOEXEC),
                   path) {}

CaptureInput::CaptureInput(int fd, std::string name) : name_(std::move(name)), fd_(fd) {
  const int open_errno = errno;  // when fd < 0, why opening failed
  SWL_CHECK(fd_ >= 0, (name_ == "-" ? std::string("cannot read capture from standard input: ")
                                    : "cannot open capture '" + name_ + "': ") +
                          std::strerror(open_errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    SWL_CHECK(false, "cannot read capture '" + name_ + "': " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    SWL_CHECK(false, "capture '" + name_ + "' is a directory");
  }
  seekable_ = (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) && ::lseek(fd_, 0, SEEK_SET) == 0;
}

CaptureInput::~CaptureInput() {
  if (fd_ >= 0) ::close(fd_);
}

std::span<const uint8_t> CaptureInput::peek(size_t n) {
  SWL_CHECK(!streamed_ || seekable_, "capture '" + name_ + "': peek after the pipe was handed out");
  while (head_.size() < n && !head_at_end_) {
    const size_t have = head_.size();
    head_.resize(n);
    ssize_t got = 0;
    do {
      got = seekable_ ? ::pread(fd_, head_.data() + have, n - have, static_cast<off_t>(have))
                      : ::read(fd_, head_.data() + have, n - have);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
      const int err = errno;
      head_.resize(have);
      SWL_CHECK(false, "cannot read capture '" + name_ + "': " + std::strerror(err));
    }
    head_.resize(have + static_cast<size_t>(got));
    if (got == 0) head_at_end_ = true;
  }
  return std::span<const uint8_t>(head_).first(std::min(n, head_.size()));
}

FilePtr CaptureInput::stream() {
  if (seekable_) {
    // A descriptor of its own (the offset is shared, so it is set here), closed with the stream.
    const int fd = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
    SWL_CHECK(fd >= 0, "cannot read capture '" + name_ + "': " + std::strerror(errno));
    std::FILE* f = ::lseek(fd, 0, SEEK_SET) == 0 ? ::fdopen(fd, "rb") : nullptr;
    if (!f) {
      const int err = errno;
      ::close(fd);
      SWL_CHECK(false, "cannot read capture '" + name_ + "': " + std::strerror(err));
    }
    return FilePtr(f);
  }
  SWL_CHECK(!streamed_, "capture '" + name_ +
                            "' is a pipe: it can be read only once (save it to a file to rewind)");
  auto cookie = std::make_unique<PipeCookie>(PipeCookie{std::move(head_), 0, fd_});
  cookie_io_functions_t io{};
  io.read = pipe_read;
  io.close = pipe_close;
  std::FILE* f = ::fopencookie(cookie.get(), "rb", io);
  SWL_CHECK(f != nullptr, "cannot read capture '" + name_ + "': " + std::strerror(errno));
  cookie.release();  // the stream's close frees it and closes the descriptor
  fd_ = -1;
  streamed_ = true;
  head_.clear();
  return FilePtr(f);
}

}  // namespace sweepline::capture::detail
