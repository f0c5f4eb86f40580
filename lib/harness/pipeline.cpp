// The one pipeline of the harness (lib/harness/experiment.hpp, family.hpp): spec -> family ->
// cells -> cached validation in parallel -> selection per group -> cached test of the chosen cells
// -> tables written atomically, or compared with the tables already written (--check).
#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/progress.hpp"
#include "lib/harness/slurm.hpp"

namespace mpg::harness {

using nlohmann::json;
namespace fs = std::filesystem;

const MethodKind& Family::method(const std::string& kind) const {
  for (const auto& m : methods())
    if (m.kind == kind) return m;
  throw Error("family '" + name() + "' has no method kind '" + kind + "'");
}

json FamilyRun::test(std::size_t, const json&) const { throw Error("this family has no test phase"); }
std::string FamilyRun::test_line(const json&) const { return ""; }

namespace {

std::string results_directory(const RunOptions& options, const std::string& spec_path) {
  return options.results_directory.empty() ? default_results_directory(spec_path) : options.results_directory;
}

// The spec's path, absolute, and relative to the source tree when it lies inside it (else empty).
struct SpecLocation {
  fs::path absolute;
  fs::path source;
  fs::path inside_source;
};
SpecLocation locate_spec(const std::string& spec_path) {
  SpecLocation where{fs::weakly_canonical(fs::absolute(spec_path)), fs::weakly_canonical(fs::path(source_directory())), {}};
  const fs::path relative = where.absolute.lexically_relative(where.source);
  if (!relative.empty() && relative.native().rfind("..", 0) != 0) where.inside_source = relative;
  return where;
}

// How the spec is named in the tables' provenance line and in results/README.md: relative to the
// source tree when inside it; "experiments/<file>" when it sits in another checkout's experiments/
// (a worktree) and this repository has a spec of that name (the provenance line then says whether
// the two are identical); else absolute.
std::string spec_display_path(const std::string& spec_path) {
  const auto [absolute, source, inside_source] = locate_spec(spec_path);
  if (!inside_source.empty()) return inside_source.generic_string();
  const fs::path in_repository = fs::path("experiments") / absolute.filename();
  std::error_code error;
  if (absolute.parent_path().filename() == "experiments" && fs::is_regular_file(source / in_repository, error))
    return in_repository.generic_string();
  return absolute.generic_string();
}

// Whether the spec file run is the repository's committed spec: "" when it is, else a note for the
// provenance line (a spec edited in place, or one from elsewhere that differs from the file of the
// same name in experiments/).
std::string spec_origin_note(const std::string& spec_path, const std::string& sha256) {
  const auto [absolute, source, relative] = locate_spec(spec_path);
  if (!relative.empty()) {
    int status = -1;
    const std::string changed =
        command_output("git -C " + shell_quote(source.string()) + " status --porcelain -- " +
                           shell_quote(relative.generic_string()) + " 2>/dev/null",
                       &status);
    if (status != 0 || changed.empty()) return "";
    return changed.rfind("??", 0) == 0 ? "this spec file is not committed" : "this spec file has uncommitted changes";
  }
  const std::string file = absolute.filename().string();
  const fs::path committed = source / "experiments" / file;
  std::error_code error;
  if (!fs::is_regular_file(committed, error)) return "";
  const std::string committed_sha256 = sha256_file_hex(committed.string());
  if (committed_sha256 == sha256) return "identical to the repository's experiments/" + file;
  return "differs from the repository's experiments/" + file + " (sha256 " + committed_sha256.substr(0, 16) + "...)";
}

// Writes the result files of one table atomically; returns their paths.
std::vector<std::string> write_tables(const std::string& directory, const std::string& base, const std::string& md,
                                      const std::string& csv, const json& out,
                                      const std::vector<std::pair<std::string, std::string>>& extra) {
  fs::create_directories(directory);
  const std::string stem = directory + "/" + base;
  std::vector<std::string> files = {stem + ".md", stem + ".csv", stem + ".json"};
  write_file_atomically(files[0], md);
  write_file_atomically(files[1], csv);
  write_file_atomically(files[2], out.dump(2) + "\n");
  for (const auto& [suffix, content] : extra) {
    files.push_back(stem + suffix);
    write_file_atomically(files.back(), content);
  }
  return files;
}

// results/README.md: every table in the directory, the code revision it was made at, and the
// command that regenerates it (rewritten after every run).
void write_results_index(const std::string& directory) {
  std::vector<json> tables;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != ".json") continue;
    const json table = parse_json_or_discarded(read_file(entry.path().string()));
    if (table.is_discarded() || !table.is_object() || !table.contains("name") || !table.contains("revision")) continue;
    json row = {{"file", entry.path().stem().string()},
                {"title", table.value("title", table["name"].get<std::string>())},
                {"revision", table["revision"]},
                {"quick", table.value("quick", false)},
                {"spec", table.value("spec", "experiments/" + table["name"].get<std::string>() + ".json")},
                {"overrides", table.value("overrides", json::array())}};
    tables.push_back(row);
  }
  std::sort(tables.begin(), tables.end(), [](const json& a, const json& b) { return a["file"] < b["file"]; });
  std::string md =
      "# Results\n\nEvery table here is written by `mpg run` from a spec in `experiments/` (this index is rewritten "
      "after each run). `./run_all.sh` regenerates them all (`--quick`: the `.quick` tables); "
      "`./run_all.sh --quick --check` reruns the quick ones and lists every number that drifted.\n\n"
      "| table | files | made at code revision | regenerate with |\n|---|---|---|---|\n";
  for (const auto& t : tables) {
    std::string command = "mpg run " + t["spec"].get<std::string>() + (t["quick"].get<bool>() ? " --quick" : "");
    for (const auto& o : t["overrides"]) command += " --set '" + o.get<std::string>() + "'";
    md += fmt::format("| {} | `{}.{{md,csv,json}}` | `{}` | `{}` |\n", t["title"].get<std::string>(),
                      t["file"].get<std::string>(), t["revision"].get<std::string>(), command);
  }
  write_file_atomically(directory + "/README.md", md);
}

// ---- Cell times ----------------------------------------------------------------------------------

// Each computed cell's wall time travels with its result (and so through the cache) under this key;
// the pipeline takes it out before the family sees the result and writes the times of all cells
// to the table's JSON, {"validation": {description: s}, "test": {...}}, from which the next run
// estimates its time left.
constexpr const char* kCellSeconds = "cell_seconds";

json timed(const std::function<json()>& compute) {
  const auto start = clock_type::now();
  json result = compute();
  if (result.is_object()) result[kCellSeconds] = seconds_since(start);
  return result;
}

double take_cell_seconds(json& result) {
  if (!result.is_object() || !result.contains(kCellSeconds)) return 0;
  const double seconds = result[kCellSeconds].is_number() ? result[kCellSeconds].get<double>() : 0;
  result.erase(kCellSeconds);
  return seconds;
}

// The table a previous run wrote at `path`: an empty object when there is none or it is not a
// JSON object (it only informs estimates; --check reads its table itself and insists on it).
json previous_table(const std::string& path) {
  if (!fs::exists(path)) return json::object();
  json old = parse_json_or_discarded(read_file(path));
  return old.is_object() ? old : json::object();
}

// Its cell times, {"validation": {...}, "test": {...}} (empty when it records none).
json cell_seconds_of(const json& table) {
  return table.contains(kCellSeconds) && table[kCellSeconds].is_object() ? table[kCellSeconds] : json::object();
}

int thread_count(const RunOptions& options) {
  return std::max(1, options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency()));
}

double last_seconds_of(const json& last, const char* phase, const std::string& description) {
  if (!last.contains(phase) || !last[phase].is_object()) return 0;
  const auto found = last[phase].find(description);
  return found != last[phase].end() && found->is_number() ? found->get<double>() : 0;
}

// ---- --check ---------------------------------------------------------------------------------

bool ignored_key(const std::string& key) {
  return key.find("seconds") != std::string::npos || key.find("revision") != std::string::npos;
}

std::string text_of(const json& value) {
  if (value.is_number_float()) return fmt::format("{:.9g}", value.get<double>());
  return value.dump();
}

// Identity of an object in an array: its text fields, "a/b/c" ("" when it has none). A row's
// "standing" (how the counting rule counts it), "verdict" and "interval_unit" describe the row,
// they do not name it: a table written before a row was counted apart, or before intervals, still
// matches it, and a verdict that moves is a change of the row, not another row.
std::string identity(const json& element) {
  std::string id;
  if (!element.is_object()) return id;
  for (const auto& [key, value] : element.items())
    if (value.is_string() && key != "standing" && key != "verdict" && key != "interval_unit") {
      if (!id.empty()) id += '/';
      id += value.get<std::string>();
    }
  return id;
}

// Array elements by identity when every element of both arrays has a distinct one, else by position.
std::vector<std::pair<std::string, std::pair<const json*, const json*>>> matched(const json& old, const json& fresh) {
  auto identities = [](const json& array, std::map<std::string, const json*>& by_id) {
    for (const auto& e : array) {
      const std::string id = identity(e);
      if (id.empty() || !by_id.emplace(id, &e).second) return false;
    }
    return true;
  };
  std::map<std::string, const json*> old_ids, fresh_ids;
  std::vector<std::pair<std::string, std::pair<const json*, const json*>>> pairs;
  if (identities(old, old_ids) && identities(fresh, fresh_ids)) {
    for (const auto& e : old) {
      const auto found = fresh_ids.find(identity(e));
      pairs.push_back({identity(e), {&e, found == fresh_ids.end() ? nullptr : found->second}});
    }
    for (const auto& e : fresh)
      if (!old_ids.count(identity(e))) pairs.push_back({identity(e), {nullptr, &e}});
    return pairs;
  }
  for (std::size_t i = 0; i < std::max(old.size(), fresh.size()); ++i)
    pairs.push_back({std::to_string(i), {i < old.size() ? &old[i] : nullptr, i < fresh.size() ? &fresh[i] : nullptr}});
  return pairs;
}

bool holds_numbers(const json& value) {
  if (value.is_number() || value.is_null()) return true;  // null: how a table writes NaN
  if (value.is_object())
    for (const auto& [key, v] : value.items())
      if (!ignored_key(key) && holds_numbers(v)) return true;
  if (value.is_array())
    for (const auto& v : value)
      if (holds_numbers(v)) return true;
  return false;
}

void compare(const json& old, const json& fresh, const std::string& where, double tolerance, std::vector<Drift>& drift,
             std::vector<std::string>* added) {
  // A table writes NaN as null: null matches null or NaN, and nothing else.
  if (old.is_null()) {
    const bool nan = fresh.is_null() || (fresh.is_number() && std::isnan(fresh.get<double>()));
    if (!nan) drift.push_back({where, "null", text_of(fresh), 0.0});
    return;
  }
  if (old.is_number()) {
    if (!fresh.is_number()) {
      drift.push_back({where, text_of(old), fresh.is_null() ? "missing" : text_of(fresh), 0.0});
      return;
    }
    const double a = old.get<double>(), b = fresh.get<double>();
    if (std::abs(b - a) > tolerance || std::isnan(a) != std::isnan(b)) drift.push_back({where, text_of(old), text_of(fresh), b - a});
    return;
  }
  if (old.is_object()) {
    for (const auto& [key, value] : old.items()) {
      if (ignored_key(key) || !holds_numbers(value)) continue;
      const std::string at = where.empty() ? key : where + "." + key;
      if (!fresh.is_object() || !fresh.contains(key)) {
        drift.push_back({at, "present", "missing", 0.0});
        continue;
      }
      compare(value, fresh[key], at, tolerance, drift, added);
    }
    if (added && fresh.is_object())
      for (const auto& [key, value] : fresh.items())
        if (!ignored_key(key) && holds_numbers(value) && !old.contains(key)) added->push_back(where + "." + key);
    return;
  }
  if (old.is_array()) {
    if (!fresh.is_array()) {
      if (holds_numbers(old)) drift.push_back({where, "array", "missing", 0.0});
      return;
    }
    for (const auto& [id, pair] : matched(old, fresh)) {
      const std::string at = where + "[" + id + "]";
      if (!pair.second) {
        if (holds_numbers(*pair.first)) drift.push_back({at, "present", "missing", 0.0});
      } else if (!pair.first) {
        if (added && holds_numbers(*pair.second)) added->push_back(at);
      } else {
        compare(*pair.first, *pair.second, at, tolerance, drift, added);
      }
    }
  }
}

}  // namespace

std::vector<Drift> compare_results(const json& old, const json& fresh, double tolerance, std::vector<std::string>* added) {
  std::vector<Drift> drift;
  compare(old, fresh, "", tolerance, drift, added);
  return drift;
}

// ---- The run ---------------------------------------------------------------------------------

std::string default_results_directory(const std::string& spec_path) {
  const fs::path directory = fs::absolute(spec_path).lexically_normal().parent_path();
  if (directory.filename() == "experiments") return (directory.parent_path() / "results").string();
  return (fs::current_path() / "results").string();
}

std::optional<double> last_run_seconds(const std::string& spec_path, const RunOptions& options) {
  const json spec = load_spec(spec_path, options.quick, options.overrides);
  const std::string table =
      results_directory(options, spec_path) + "/" + spec["name"].get<std::string>() + (options.quick ? ".quick" : "") + ".json";
  const json old = previous_table(table);
  if (!old.contains("seconds") || !old["seconds"].is_number()) return std::nullopt;
  // A run that took its cells from the cache took little time; the sum of its cells' times is the
  // better estimate when the table records them.
  double cells = 0;
  const json recorded = cell_seconds_of(old);
  for (const auto& [phase, times] : recorded.items())
    if (times.is_object())
      for (const auto& [cell, seconds] : times.items())
        if (seconds.is_number()) cells += seconds.get<double>();
  return std::max(old["seconds"].get<double>(), cells / thread_count(options));
}

RunSummary run_experiment(const std::string& spec_path, const RunOptions& options) {
  const auto start = clock_type::now();
  const json spec = load_spec(spec_path, options.quick, options.overrides);
  const Family& family = family_named(spec.value("task", std::string("binary")));
  const std::string name = spec["name"].get<std::string>();
  const std::string results = results_directory(options, spec_path);
  const std::string base = name + (options.quick ? ".quick" : "");
  // Outputs are checked before the work: a directory that cannot be made fails now, not after hours.
  if (!options.slurm_task_file.empty()) {
    // A Slurm task writes only into the cache.
  } else if (options.check) {
    if (!fs::exists(results + "/" + base + ".json"))
      throw Error("--check: there is no " + results + "/" + base + ".json to compare with (run the spec without --check first)");
  } else {
    require_writable_directory(results, "results");
  }
  // The family's stamp (cache.hpp): a change elsewhere leaves this family's cells cached.
  const std::string stamp = options.code_stamp.empty() ? family_stamp(family.name()) : options.code_stamp;
  // The revision the tables name is read now, when the binary's stamp has just been checked
  // against the source tree, not when the tables are written: the tree may move on during a long run.
  const std::string revision = source_revision();
  const bool cache_enabled = stamp != "unknown";
  if (!cache_enabled && options.progress)
    fmt::print(stderr, "[{}] the code's content stamp is unknown (no sources beside the binary): the cell cache is off\n", name);
  const std::string cache_root = options.cache_directory.empty() ? results + "/.cache" : options.cache_directory;
  if (cache_enabled) require_writable_directory(cache_root + "/" + name, "the cell cache");
  const CellCache cache(cache_root + "/" + name, cache_enabled);
  if (options.executor != "local" && options.executor != "slurm")
    throw Error("unknown executor '" + options.executor + "' (known: local, slurm)");
  const bool on_slurm = options.executor == "slurm" && options.slurm_task_file.empty();
  if (on_slurm && !cache_enabled)
    throw Error("--executor slurm needs the cell cache, which is off (the code's content stamp is unknown)");
  const std::string spec_sha256 = sha256_file_hex(spec_path);

  const std::unique_ptr<FamilyRun> run = family.prepare(spec);
  const std::vector<CellPlan> cells = run->cells();
  // What a cell's result depends on: the family, the phase, the code, the method kind with every
  // resolved parameter, and the family's description of the cell (data, task, protocol).
  auto key_of = [&](std::size_t i, const char* phase) {
    json key = {{"family", family.name()}, {"phase", phase}, {"code", stamp}, {"cell", cells[i].key}};
    if (!cells[i].method.empty())
      key["method"] = {{"kind", spec["methods"][cells[i].method]["kind"]}, {"parameters", cells[i].parameters.all()}};
    return key;
  };

  RunSummary summary;
  summary.name = name;
  if (!options.slurm_task_file.empty()) {
    run_slurm_task(options.slurm_task_file, spec_sha256, stamp, cache, cells.size(), key_of, *run);
    summary.cells = 1;
    return summary;
  }
  // --executor slurm: a phase's uncached cells run as one job array first; the phase below then
  // finds every cell in the cache (cells the array computed are not counted as cached).
  std::set<std::size_t> on_cluster;
  auto run_on_slurm = [&](const char* phase, const std::vector<std::size_t>& indices) {
    if (!on_slurm) return;
    const SlurmPhase slurm{name, phase, spec_path, spec_sha256, stamp, cache_root, results, cache, options, key_of,
                           [&](std::size_t i) { return cells[i].description; }};
    for (const std::size_t i : slurm.run(indices)) on_cluster.insert(i);
  };
  std::atomic<int> cached{0};
  const int threads = thread_count(options);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  CellProgress progress(name, options.progress, options.heartbeat_seconds);
  const json last_times = cell_seconds_of(previous_table(results + "/" + base + ".json"));
  json cell_seconds = {{"validation", json::object()}, {"test", json::object()}};
  std::mutex cell_seconds_mutex;
  auto record = [&](const char* phase, const std::string& description, json& result) {
    const double seconds = take_cell_seconds(result);
    const std::lock_guard<std::mutex> lock(cell_seconds_mutex);
    if (seconds > 0) cell_seconds[phase][description] = seconds;
  };
  auto phase_seconds = [&](const char* phase, const std::vector<std::size_t>& indices) {
    double total = 0;
    for (const std::size_t i : indices) total += last_seconds_of(last_times, phase, cells[i].description);
    return total;
  };

  std::vector<json> validation(cells.size());
  std::vector<std::size_t> launch(cells.size());  // higher priority first, else cell order
  std::iota(launch.begin(), launch.end(), std::size_t{0});
  std::stable_sort(launch.begin(), launch.end(),
                   [&](std::size_t a, std::size_t b) { return cells[a].priority > cells[b].priority; });
  run_on_slurm("validation", launch);
  progress.start_phase(static_cast<int>(cells.size()), phase_seconds("validation", launch), threads);
  tbb::parallel_for(std::size_t{0}, launch.size(), [&](std::size_t j) {
    const std::size_t i = launch[j];
    const long token =
        progress.begin(cells[i].description, last_seconds_of(last_times, "validation", cells[i].description));
    auto [result, was_cached] =
        cache.get_or_compute(key_of(i, "validation"), [&] { return timed([&] { return run->validate(i); }); });
    was_cached = was_cached && !on_cluster.count(i);
    cached += was_cached;
    record("validation", cells[i].description, result);
    progress.finish(token, cells[i].description + "  " + run->validation_line(result), was_cached);
    validation[i] = std::move(result);
  });

  // Selection: the best validation score per group; among equal scores the earlier cell (grid order).
  std::map<std::string, std::size_t> selected;
  std::map<std::string, double> best;
  for (std::size_t i = 0; i < cells.size(); ++i)
    for (const auto& [group, score] : run->selection(i, validation[i])) {
      if (std::isnan(score)) continue;
      const auto found = best.find(group);
      if (found == best.end() || score > found->second) {
        best[group] = score;
        selected[group] = i;
      }
    }

  std::map<std::size_t, json> tests;
  if (run->has_test_phase()) {
    std::set<std::size_t> chosen_set;
    for (const auto& [group, i] : selected) chosen_set.insert(i);
    const std::vector<std::size_t> chosen(chosen_set.begin(), chosen_set.end());
    std::vector<json> results_of(chosen.size());
    on_cluster.clear();
    run_on_slurm("test", chosen);
    progress.start_phase(static_cast<int>(chosen.size()), phase_seconds("test", chosen), threads);
    tbb::parallel_for(std::size_t{0}, chosen.size(), [&](std::size_t j) {
      const std::size_t i = chosen[j];
      const long token =
          progress.begin(cells[i].description + "  test", last_seconds_of(last_times, "test", cells[i].description));
      auto [result, was_cached] =
          cache.get_or_compute(key_of(i, "test"), [&] { return timed([&] { return run->test(i, validation[i]); }); });
      was_cached = was_cached && !on_cluster.count(i);
      cached += was_cached;
      record("test", cells[i].description, result);
      progress.finish(token, cells[i].description + "  " + run->test_line(result), was_cached);
      results_of[j] = std::move(result);
    });
    for (std::size_t j = 0; j < chosen.size(); ++j) tests[chosen[j]] = std::move(results_of[j]);
  }
  summary.cells = static_cast<int>(cells.size() + tests.size());
  summary.cached_cells = cached;

  Tables tables = run->tables(Outcome{cells, validation, selected, tests});
  summary.tally = tables.tally;
  summary.published_cells = tables.tally.published_cells;
  summary.within_tolerance = tables.tally.within_tolerance;
  summary.outside = tables.tally.outside;

  const std::string shown_spec = spec_display_path(spec_path);
  const std::string spec_note = spec_origin_note(spec_path, spec_sha256);
  std::string command = "mpg run " + shown_spec + (options.quick ? " --quick" : "");
  for (const auto& o : options.overrides) command += fmt::format(" --set '{}'", o);
  const std::string title = spec.value("title", name);
  // The notes are the spec's text, written for its own settings: an override can contradict them.
  const std::string override_note =
      options.overrides.empty() ? "" : " The notes below are the spec's, written for its own settings: where they "
                                       "differ, the `--set` overrides above are what ran.";
  const std::string md = fmt::format(
      "# {}\n\nGenerated by `{}` (spec sha256 `{}`{}) with the code of revision `{}`{}.{}\n\n{}", title, command,
      spec_sha256, spec_note.empty() ? "" : "; " + spec_note, revision,
      options.quick ? "; --quick: a reduced grid, a smoke test" : "", override_note, tables.markdown);
  json out = {{"name", name},
              {"title", title},
              {"family", family.name()},
              {"spec", shown_spec},
              {"spec_sha256", spec_sha256},
              {"revision", revision},
              {"quick", options.quick},
              {"overrides", options.overrides},
              {"seconds", seconds_since(start)},
              {kCellSeconds, cell_seconds}};
  if (!spec_note.empty()) out["spec_note"] = spec_note;
  out["count"] = tables.tally.to_json();
  for (const auto& [key, value] : tables.fields.items()) out[key] = value;

  if (options.check) {
    const std::string against = results + "/" + base + ".json";
    const json old = read_json_file(against);
    if (old.is_discarded()) throw InputError(against, "not valid JSON: nothing to check against");
    summary.drift = compare_results(old, out, options.check_tolerance, &summary.added);
    summary.checked_against = against;
    return summary;
  }
  summary.result_files = write_tables(results, base, md, tables.csv, out, tables.extra_files);
  write_results_index(results);
  return summary;
}

// ---- The spec reference ------------------------------------------------------------------------

namespace {

std::string key_rows(const std::vector<SpecKey>& keys) {
  std::string md = "| key | required | meaning |\n|---|---|---|\n";
  for (const auto& k : keys) md += fmt::format("| `{}` | {} | {} |\n", k.name, k.required ? "yes" : "no", k.help);
  return md;
}

}  // namespace

std::string spec_reference() {
  std::string md =
      "<!-- Generated by `mpg run --spec-reference` from the families' key lists and the methods' parameter "
      "tables (lib/harness/families/<family>.cpp); edit those, not this text. -->\n\n### Every spec\n\n" +
      key_rows(common_keys());
  for (const Family* family : families()) {
    md += fmt::format("\n### Family `{}`\n\n{}\n\n", family->name(), family->summary());
    md += key_rows(family->keys());
    for (const auto& m : family->methods()) {
      md += fmt::format("\n#### `{}` method `{}`\n\n{}\n\n", family->name(), m.kind, m.summary);
      md += m.parameters.markdown();
    }
  }
  return md;
}

}  // namespace mpg::harness
