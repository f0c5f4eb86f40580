#include "lib/data/simulated_pairs.hpp"

#include <cmath>

#include "lib/base/error.hpp"

namespace mpg {

SquaredNorm parse_squared_norm(const std::string& name) {
  if (name == "l1") return SquaredNorm::l1;
  if (name == "l2") return SquaredNorm::l2;
  if (name == "linf") return SquaredNorm::linf;
  throw Error("unknown norm " + excerpt(name) + " (expected l1, l2 or linf)");
}

std::string to_string(SquaredNorm norm) {
  switch (norm) {
    case SquaredNorm::l1: return "l1";
    case SquaredNorm::l2: return "l2";
    case SquaredNorm::linf: return "linf";
  }
  return "?";
}

double squared_norm_rank(SquaredNorm norm, const Eigen::Ref<const Eigen::VectorXd>& x) {
  switch (norm) {
    case SquaredNorm::l1: {
      const double s = x.cwiseAbs().sum();
      return s * s;
    }
    case SquaredNorm::l2: return x.squaredNorm();
    case SquaredNorm::linf: {
      const double s = x.cwiseAbs().maxCoeff();
      return s * s;
    }
  }
  return 0.0;
}

SimulatedPairs simulate_norm_pairs(const SimulatedPairsOptions& options) {
  double low = options.offset_low, high = options.offset_high;
  if (std::isnan(low) || std::isnan(high)) {
    switch (options.norm) {
      case SquaredNorm::l1: low = -0.5, high = 0.5; break;
      case SquaredNorm::l2: low = -1.0, high = 0.5; break;
      case SquaredNorm::linf: low = -1.0, high = 1.0; break;
    }
  }
  if (options.pairs == 0) throw Error("simulate_norm_pairs: the pool must have at least one pair");
  if (!(options.noise_sd >= 0.0)) throw Error("simulate_norm_pairs: noise sd must be >= 0");
  if (!(options.x_low < options.x_high) || !(low < high))
    throw Error("simulate_norm_pairs: empty box for x or for the offset x' - x");
  SimulatedPairs out;
  const auto n = static_cast<long>(options.pairs);
  out.pairs.first.resize(n, 2);
  out.pairs.second.resize(n, 2);
  out.pairs.labels.resize(options.pairs);
  out.true_differences.resize(options.pairs);
  PairRandom random(options.seed);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < 2; ++j) {
      out.pairs.first(i, j) = random.uniform(options.x_low, options.x_high);
      out.pairs.second(i, j) = out.pairs.first(i, j) + random.uniform(low, high);
    }
    const double d = squared_norm_rank(options.norm, out.pairs.second.row(i).transpose()) -
                     squared_norm_rank(options.norm, out.pairs.first.row(i).transpose());
    out.true_differences[static_cast<std::size_t>(i)] = d;
    out.pairs.labels[static_cast<std::size_t>(i)] = threshold_comparison(d + options.noise_sd * random.normal(), 1.0);
  }
  return out;
}

}  // namespace mpg
