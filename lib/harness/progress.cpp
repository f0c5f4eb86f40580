#include "lib/harness/progress.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <utility>

namespace mpg::harness {
namespace {

// 41 s -> "0m41s", 845 s -> "14m05s", 3,725 s -> "1h02m05s".
std::string format_elapsed(double seconds) {
  const long s = static_cast<long>(seconds);
  if (s >= 3600) return fmt::format("{}h{:02d}m{:02d}s", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}m{:02d}s", s / 60, s % 60);
}

}  // namespace

CellProgress::CellProgress(std::string spec_name, bool enabled, double heartbeat_seconds, std::FILE* out)
    : spec_name_(std::move(spec_name)),
      enabled_(enabled),
      heartbeat_(heartbeat_seconds),
      out_(out),
      last_print_(clock::now()) {
  if (enabled_ && heartbeat_seconds > 0) heartbeat_thread_ = std::thread([this] { heartbeat_loop(); });
}

CellProgress::~CellProgress() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (heartbeat_thread_.joinable()) heartbeat_thread_.join();
}

void CellProgress::start_phase(int total, double expected_seconds, int threads) {
  const std::lock_guard<std::mutex> lock(mutex_);
  done_ = 0;
  total_ = total;
  threads_ = std::max(1, threads);
  phase_expected_ = std::max(0.0, expected_seconds);
  begun_expected_ = scaled_actual_ = scaled_expected_ = 0;
}

long CellProgress::begin(const std::string& description, double expected_seconds) {
  // The heartbeat lists several cells on one line: column padding is squeezed to single spaces.
  std::string squeezed;
  for (char c : description)
    if (c != ' ' || (!squeezed.empty() && squeezed.back() != ' ')) squeezed += c;
  while (!squeezed.empty() && squeezed.back() == ' ') squeezed.pop_back();
  const std::lock_guard<std::mutex> lock(mutex_);
  const long token = next_token_++;
  running_[token] = {std::move(squeezed), clock::now(), std::max(0.0, expected_seconds)};
  begun_expected_ += std::max(0.0, expected_seconds);
  return token;
}

void CellProgress::finish(long token, const std::string& line, bool cached) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto now = clock::now();
  if (const auto found = running_.find(token); found != running_.end()) {
    if (!cached && found->second.expected > 0) {
      scaled_actual_ += std::chrono::duration<double>(now - found->second.since).count();
      scaled_expected_ += found->second.expected;
    }
    running_.erase(found);
  }
  ++done_;
  print_locked(line + (cached ? "  (cached)" : "") + time_left_locked(now));
}

std::string CellProgress::time_left_locked(clock::time_point now) const {
  if (phase_expected_ <= 0 || done_ >= total_) return "";
  // This run against the last: the ratio of finished cells' times (1 until one is known).
  const double scale = scaled_expected_ > 0 ? std::clamp(scaled_actual_ / scaled_expected_, 0.1, 10.0) : 1.0;
  double left = scale * std::max(0.0, phase_expected_ - begun_expected_);
  for (const auto& [token, cell] : running_)
    left += std::max(0.0, scale * cell.expected - std::chrono::duration<double>(now - cell.since).count());
  return fmt::format("  [about {} left]", format_elapsed(left / threads_));
}

void CellProgress::print_locked(const std::string& text) {
  last_print_ = clock::now();
  if (!enabled_) return;
  fmt::print(out_, "[{}] {:>4d}/{:<4d} {}\n", spec_name_, done_, total_, text);
  std::fflush(out_);
}

void CellProgress::heartbeat_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    const auto due = last_print_ + std::chrono::duration_cast<clock::duration>(heartbeat_);
    if (wake_.wait_until(lock, due, [&] { return stopping_; })) return;
    const auto now = clock::now();
    if (now < last_print_ + std::chrono::duration_cast<clock::duration>(heartbeat_)) continue;  // printed meanwhile
    if (running_.empty()) {
      last_print_ = now;  // nothing to report; look again one interval later
      continue;
    }
    std::string text = "running: ";
    bool first = true;
    for (const auto& [token, cell] : running_) {
      text += fmt::format("{}{} ({})", first ? "" : ", ",
                          cell.description, format_elapsed(std::chrono::duration<double>(now - cell.since).count()));
      first = false;
    }
    print_locked(text);
  }
}

}  // namespace mpg::harness
