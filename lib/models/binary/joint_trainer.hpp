// Certified F1-MPG training as ONE saddle-point LP over marginals, theta among its columns
// (docs/methods.md, "Training as one saddle-point LP"). The objective of thesis Eq. 3.9,
//     F(theta) = lambda/2 ||theta||^2 - theta . Phi_gold - v(theta),
// v(theta) the value of the F1 game with potentials psi_i = theta . x_i, has min F = -J* with
//     J* = max_{P, theta} min_Q  E_{P,Q}[F1] - theta . (E_Q[Phi] - Phi_gold) - lambda/2 ||theta||^2,
// jointly concave in (P, theta) and linear in Q. Strategies are size distributions and marginals
// p_ik = P(y_i = 1, |y| = k); the adversary's value at each size l is the LP dual of its
// smallest-l sum, so the restricted problem is one LP in (r, p, theta) with the quadratic by
// tangent rows per coordinate. Each round adds the players' best sizes over the full game, the
// adversary rows and predictor columns of examples their best responses take, and tangents.
//
// Bounds (exact whatever the restriction):
//   J* >= min_y E_P[F1(Y_hat, y)] - theta . Phi(y) + theta . Phi_gold - lambda/2 ||theta||^2,
//   J* <= max_y_hat E_Q[F1(y_hat, Y)] + ||E_Q[Phi] - Phi_gold||^2 / (2 lambda),
// so F(theta) <= -(first) for the returned theta and min F >= -(second).
//
// Where the proximal bundle over games (marginal_trainer.hpp) needs hundreds of cuts to match
// E_Q[Phi] to Phi_gold, here the LP matches them through the adversary's marginals directly.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lib/models/binary/binary_mpg.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"

namespace mpg {

struct JointTrainSummary;

struct JointTrainOptions {
  double lambda = 0.125;      // must be > 0
  double tolerance = 1e-6;    // on objective - lower bound (min F)
  int max_iterations = 2000;  // rounds (one LP solve each); 0 = no cap
  double max_seconds = 0.0;   // 0 = no cap (also stops an LP solve that runs past it)
  int stall_iterations = 200; // stop (not converged) when the gap shrank < 0.1% for this long
  // theta moves at most this far per coordinate from the best point so far (doubled whenever the
  // LP's theta reaches it); 0 = 0.1 / max_i ||x_i||_1 (potentials move by at most 0.1 at first).
  double trust_region = 0.0;
  // A new adversary size starts with rows for its l + row_margin cheapest examples.
  int row_margin = 20;
  // A player's examples ranked below size - fix_margin in its best action at a size of the LP are
  // fixed in it: the adversary's become one aggregate in the size's value row (q_il = P(|y| = l)),
  // the predictor's that sit at p_ik = r_k are replaced by r_k; each is unfixed when the best
  // action at that size no longer takes it. -1 = never fix. 0 (fix what the best action takes):
  // with long_step, syn1000 certified in 54 s CPU instead of 100 s (LPs of 1-2k rows instead of
  // 7k); not the default: a tie on OPTDIGITS class 1 at lambda = 64, slower on ADULT (docs/methods.md).
  int fix_margin = 10;
  // ... once the pair has met that condition (in, or out: ranked from size + fix_margin on and at
  // marginal 0, which removes its row or column) in this many rounds in a row.
  int fix_after = 2;
  // New predictor examples and sizes get columns only within their bands: an example joins
  // without columns (p_ik = 0) and gains them where a size's best action takes it; a new size gets
  // columns for its examples ranked below k + fix_margin, those below k - fix_margin substituted
  // by r_k; a new adversary size starts with its examples ranked below l - fix_margin fixed in.
  // false: a column (row) for every pair until the fixings remove it.
  bool sparse_growth = true;
  // Sizes without weight for this many rounds (not the players' current best sizes) leave the
  // LP, each at most once and only in a round that improved the objective; a best response
  // brings them back. 0 = never.
  int drop_idle_rounds = 10;
  // Sizes added per player per round: the best size over the full game and, up to this many in
  // all, the next best sizes whose values cut off the LP's solution, spread apart (1 = the best
  // size only). The tail to a tight certificate adds the many sizes both players mix over.
  int sizes_per_round = 1;
  // The tail: once the certified gap is <= tail_gap x tolerance, up to this many sizes per round
  // instead (0: no tail switch). Early rounds move theta far and new sizes soon go idle; near the
  // end both players mix over many sizes, added one or a few per round without this.
  int tail_sizes_per_round = 0;
  double tail_gap = 300.0;
  // Each round's best values over the full game: exact at the LP's sizes and wherever a lower
  // bound per block of 64 sizes could reach the best of those, the bound elsewhere (joint_strategy.hpp);
  // the same best sizes, values and theta as evaluating every size (false).
  bool lazy_best_values = true;
  // GLPK's long-step (bound flipping) ratio test instead of Harris' (syn500: 17.1 s instead of 19.6 s).
  bool long_step = false;
  // theta's first trust region is around a point along Phi_gold (start_potential below) or
  // around 0 (on ADULT's many nearly identical examples its LPs stall: docs/methods.md).
  TrainStart start = TrainStart::gold_direction;
  // gold_direction: the unit vector along Phi_gold times the alpha that minimizes the objective's
  // bound with the predictor playing the gold labelling (0, the default; convex in alpha), or
  // scaled so that the largest |psi_i| = |x_i . theta| is start_potential (> 0), or unscaled (< 0).
  // From the unit vector OPTDIGITS' potentials are ~100, F1 is worth at most 1, and the first ~12
  // rounds (of ~30) walked the trust region back toward theta*, whose potentials are < 0.04.
  double start_potential = 0.0;
  // Initial predictor columns: the gold examples and the examples most like them (largest
  // x_i . Phi_gold), up to this multiple of the gold count.
  double initial_free_factor = 1.5;
  // Simplex iterations per attempt at the strict tolerances (warm, then from GLPK's advanced
  // basis); 0 = 2 x (rows + columns) + 5,000. When both attempts fail, a scaled copy of the LP is
  // solved at GLPK's default tolerances, then a copy through GLPK's presolver (either "rescued"),
  // then the primal simplex runs uncapped.
  int pivot_limit = 0;
  std::function<void(const JointTrainSummary&)> progress;  // after every round
};

struct JointTrainSummary {
  CuttingPlaneStatus status = CuttingPlaneStatus::iteration_limit;
  std::string message;
  int iterations = 0;          // rounds (LP solves)
  double objective = 0.0;      // F(theta) <= objective for the returned theta
  double lower_bound = 0.0;    // min F >= lower_bound
  double gap = 0.0;            // objective - lower_bound
  int predictor_sizes = 0;     // sizes in the LP
  int adversary_sizes = 0;
  int predictor_examples = 0;  // examples with predictor columns
  long adversary_rows = 0;     // (example, size) rows of the adversary
  long adversary_fixed = 0;    // (example, size) pairs fixed in an adversary size's actions
  long predictor_fixed = 0;    // (example, size) pairs with p_ik replaced by r_k
  long unfixed = 0;            // fixed pairs released again, over the run
  long dropped_sizes = 0;      // idle sizes removed, over the run
  int lp_rows = 0;
  long rescued_lps = 0;        // rounds whose LP only the scaled copy at GLPK's default tolerances solved
  long lp_pivots = 0;          // simplex iterations over all LP solves (rescue copies included)
  int sizes_per_round = 1;     // the option the run used
  int tail_rounds = 0;         // rounds run with tail_sizes_per_round
  double seconds = 0.0;
  double lp_seconds = 0.0;
  double response_seconds = 0.0;  // best responses over the full game, bounds, row generation

  bool converged() const { return status == CuttingPlaneStatus::converged; }
  nlohmann::json to_json() const;
  // "<message> after <n> rounds: objective <F> (certified gap <g>), ...; <s> s (<lp> s LP)".
  std::string report() const;
};

// The step alpha of the joint trainer's start alpha d, d = Phi_gold / |Phi_gold| (start_potential
// 0): the minimizer over [0, sqrt(2/lambda)] of the objective's bound when the predictor plays the
// gold labelling G,  U(alpha) = lambda/2 alpha^2 - alpha |Phi_gold| + max_y [alpha d . Phi(y) - F1(G, y)]
// (convex in alpha; golden-section search). 0 when Phi_gold = 0.
double gold_direction_step(const BinaryProblem& problem, double lambda);

// Throws mpg::Error for a metric other than F1, lambda <= 0 or tolerance <= 0.
BinaryModel train_f1_mpg_joint(const BinaryProblem& problem, const MetricSettings& settings,
                               const JointTrainOptions& options, JointTrainSummary* summary = nullptr);

}  // namespace mpg
