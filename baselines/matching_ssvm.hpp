// Max-margin bipartite matching for word alignment (Taskar, Lacoste-Julien & Klein 2005), the
// SSVM rows of thesis Table XIII ("our own max-margin matching implementation"). An alignment is
// a matching y of the word pairs of a sentence pair, scored linearly,
//     w . Psi(x, y) = sum_{e in y} w . phi(e),
// and w minimizes, over the training pairs n = 1..N with target matchings y_n*
// (lib/models/alignment_mpg.hpp target_matching),
//     1/2 ||w||^2 + C xi,   xi >= (1/N) sum_n [Delta_n(y_n) - w . (Psi_n(y_n*) - Psi_n(y_n))]  for all y_1..y_N,
// with Delta_n(y) = L_n(y) - L_n(y_n*) >= 0 and L the loss c_fn |S \ y| + c_fp |y \ P| against the
// gold sure and possible links (alignment_loss). Loss-augmented inference is a maximum-weight
// matching: L is additive over links, so argmax_y Delta_n(y) + w . Psi_n(y) takes edge weights
//     w . phi(e) + c_fp [e not in P] - c_fn [e in S]
// (Hungarian algorithm, lib/game/bipartite_matching.hpp). Trained by the 1-slack cutting-plane
// algorithm (lib/learn/one_slack_cutting_plane.hpp), which certifies the objective within
// C epsilon of the optimum. Prediction: the maximum-weight matching under w . phi(e).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/learn/one_slack_cutting_plane.hpp"
#include "lib/models/alignment_mpg.hpp"

namespace mpg {

struct MatchingSsvmOptions {
  double C = 1.0;          // > 0: weight of the averaged slack
  AlignmentCosts costs;    // c_fn per missed sure link, c_fp per link outside P (default 1, 1)
  double epsilon = 1e-3;   // certified objective within C epsilon (epsilon in links per pair)
  int max_iterations = 1000;
};

// converged, iterations, constraints, objective (1/2 ||w||^2 + C xi(w) at the returned w),
// dual_objective (a lower bound on the optimum), slack (xi(w): the average loss-augmented
// hinge), seconds: lib/learn/one_slack_cutting_plane.hpp.
struct MatchingSsvmSummary : OneSlackSummary {
  double training_loss = 0.0;  // average L of the predicted matchings on the training pairs
  std::string message;
};

struct LinearAlignmentModel {
  Eigen::VectorXd weights;  // one per feature
};

// Throws mpg::Error for no instances, C or epsilon not finite and > 0, max_iterations < 1,
// negative costs, or instances with different feature counts.
LinearAlignmentModel train_matching_ssvm(const std::vector<AlignmentInstance>& instances,
                                         const MatchingSsvmOptions& options, MatchingSsvmSummary* summary = nullptr);

// argmax_y w . Psi(x, y) over matchings (links of score <= 0 are never proposed).
AlignmentAction predict_matching(const LinearAlignmentModel& model, const AlignmentInstance& instance);

}  // namespace mpg
