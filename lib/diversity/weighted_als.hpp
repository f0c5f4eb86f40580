// Weighted alternating least squares for a rating matrix (Parambath thesis §3.4.2 "Latent factor
// based models", Eq. 3.10; Hu et al. 2008, Steck 2013): R (users x items) ~ P Q^T with rank z,
//     J(P, Q) = sum_{(i,j) observed} (R_ij - p_i . q_j)^2 + lambda (sum_i |p_i|^2 + sum_j |q_j|^2),
// the weight C_ij being 1 on observed entries and 0 elsewhere. Each half-step solves its ridge
// problems exactly (the thesis's update, dimensionally corrected in the digest §3.6):
//     p_i = (sum_{j in obs(i)} q_j q_j^T + lambda I)^{-1} sum_{j in obs(i)} R_ij q_j,
// and symmetrically for q_j, so J never increases. The thesis gives lambda = 0.01 and neither
// the rank, the iterations nor the initialization; the defaults below are ours (issue-27 notes).
#pragma once

#include "lib/base/option_checks.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstdint>
#include <vector>

namespace mpg {

struct WeightedAlsOptions {
  int rank = 20;                // z
  double lambda = 0.01;         // ridge weight (thesis: 0.01, untuned)
  int max_iterations = 20;      // sweeps (P then Q)
  double tolerance = 1e-6;      // stop when J decreases by less than tolerance * J in a sweep
  std::uint64_t seed = 1;       // initial item factors uniform in [-init_scale, init_scale]
  double init_scale = 0.1;      // (P is solved first, so it needs no initialization)

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("weighted ALS", "lambda", lambda);
    option_checks::at_least("weighted ALS", "rank", rank, 1);
    option_checks::at_least("weighted ALS", "max_iterations", max_iterations, 1);
    option_checks::non_negative("weighted ALS", "tolerance", tolerance);
    option_checks::non_negative("weighted ALS", "init_scale", init_scale);
  }
};

struct WeightedAlsSummary {
  bool converged = false;       // the tolerance was met (not merely the sweep cap)
  int iterations = 0;           // sweeps done
  double objective = 0.0;       // J at the returned factors
  double rmse = 0.0;            // root mean squared error on the observed entries
  std::vector<double> history;  // J after each sweep (non-increasing)
  double seconds = 0.0;
};

struct FactorModel {
  Eigen::MatrixXd user_factors;  // users x z (rows p_i)
  Eigen::MatrixXd item_factors;  // items x z (rows q_j)
  double predict(int user, int item) const { return user_factors.row(user).dot(item_factors.row(item)); }
};

struct WeightedAlsResult {
  FactorModel model;
  WeightedAlsSummary summary;
};

// Observed entries as (user, item, rating) triplets of a users x items matrix; a repeated entry
// is an error, and so is an index outside the matrix or a non-finite value (mpg::Error).
WeightedAlsResult train_weighted_als(int users, int items, const std::vector<Eigen::Triplet<double>>& ratings,
                                     const WeightedAlsOptions& options = {});

// J(P, Q) of the model on the observed entries.
double weighted_als_objective(const FactorModel& model, const std::vector<Eigen::Triplet<double>>& ratings,
                              double lambda);

}  // namespace mpg
