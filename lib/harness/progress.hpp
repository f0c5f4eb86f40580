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
  // `expected_seconds`: what the phase's cells took in the last run (0: unknown), `threads`: cells
  // run at a time; with both, each line ends in the phase's estimated time left (finish()).
  void start_phase(int total, double expected_seconds = 0, int threads = 1);
  // A cell starts running under `description`; `expected_seconds` is what it took in the last run
  // (0: unknown). Returns its token for finish().
  long begin(const std::string& description, double expected_seconds = 0);
  // The cell is done: prints "[spec] done/total <line>", "  (cached)" when it came from the cache,
  // and, while cells remain and the last run's times are known, "  [about 12m05s left]": the last
  // run's time of the cells not finished, scaled by how this run's finished cells compare with
  // their last times, shared among the threads.
  void finish(long token, const std::string& line, bool cached);

 private:
  using clock = std::chrono::steady_clock;
  struct Running {
    std::string description;
    clock::time_point since;
    double expected = 0;
  };
  void print_locked(const std::string& text);  // caller holds mutex_
  std::string time_left_locked(clock::time_point now) const;  // "" when there is no estimate
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
  int threads_ = 1;
  double phase_expected_ = 0;  // the last run's time of the phase's cells
  double begun_expected_ = 0;  // ... of the cells begun so far
  double scaled_actual_ = 0;   // this run's time of finished computed cells with a known last time
  double scaled_expected_ = 0; // ... and their last times
  long next_token_ = 0;
  std::map<long, Running> running_;  // by token, i.e. in start order
  clock::time_point last_print_;
  std::thread heartbeat_thread_;
};

}  // namespace mpg::harness
