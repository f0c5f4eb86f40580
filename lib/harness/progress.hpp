// Progress of an experiment's cells on a stream (stderr by default), shared by every experiment
// type: one line per finished cell, "[<spec>]   12/429  <what>", and, because a single cell can
// run for an hour (a capped ADULT F1-MPG training), a heartbeat line whenever nothing has been
// printed for `heartbeat_seconds` while cells are running:
//   [<spec>]   12/429  running: ADULT MPG lambda=0.5 (14m05s), OPTDIGITS/class 3 MPG lambda=2 (0m41s)
// Lines never interleave: every print holds one mutex.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace mpg::harness {

class CellProgress {
 public:
  // `enabled` = false prints nothing (and starts no thread); heartbeat_seconds <= 0 turns the
  // heartbeat off.
  CellProgress(std::string spec_name, bool enabled, double heartbeat_seconds, std::FILE* out = stderr);
  ~CellProgress();
  CellProgress(const CellProgress&) = delete;
  CellProgress& operator=(const CellProgress&) = delete;

  // Starts a new count (the validation cells, then the test cells): done = 0 of `total`.
  void start_phase(int total);
  // A cell starts running under `description`; returns its token for finish().
  long begin(const std::string& description);
  // The cell is done: prints "[spec] done/total <line>" and "  (cached)" when it came from the cache.
  void finish(long token, const std::string& line, bool cached);

 private:
  using clock = std::chrono::steady_clock;
  struct Running {
    std::string description;
    clock::time_point since;
  };
  void print_locked(const std::string& text);  // caller holds mutex_
  void heartbeat_loop();

  std::string spec_name_;
  bool enabled_;
  std::chrono::duration<double> heartbeat_;
  std::FILE* out_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  int done_ = 0;
  int total_ = 0;
  long next_token_ = 0;
  std::map<long, Running> running_;  // by token, i.e. in start order
  clock::time_point last_print_;
  std::thread heartbeat_thread_;
};

}  // namespace mpg::harness
