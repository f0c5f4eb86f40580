// The cut model of a proximal bundle method for learning objectives of the form
//     F(theta) = lambda/2 ||theta||^2 - theta . g + phi(theta),   phi convex,
// known through cuts phi(theta) >= a_k . theta - c_k (Kelley's method / BMRM, Teo et al. 2010,
// with the regularizer kept exact), stabilized by a proximal term around a center (Kiwiel 1990).
// The cutting-plane trainer (cutting_plane_trainer.hpp) adds one cut per iteration from the game
// at theta; this class keeps the cuts, solves the master problems and moves the center.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg {

// One cut phi(theta) >= slope . theta - offset of the convex part phi of a learning objective. It
// does not involve lambda, so a cut collected while minimizing F for one lambda is valid for all.
struct Cut {
  Eigen::VectorXd slope;
  double offset = 0.0;
};

// The cutting-plane model  phi_K(theta) = max_k (a_k . theta - c_k)  and its master problems
//   min_theta lambda/2 ||theta||^2 - theta . g + phi_K(theta) + mu/2 ||theta - center||^2.
// With B = [a_k - g] and l = lambda + mu the dual is the simplex QP (simplex_qp.hpp)
//   min_alpha 1/2 alpha^T (B^T B / l) alpha + (c - B^T mu center / l) . alpha
// (on the simplex, alpha^T (u 1^T) alpha = u . alpha), and theta = (mu center - B alpha) / l.
// With mu = 0 the dual objective, negated, is a lower bound on min F at every alpha.
class CutModel {
 public:
  CutModel(Eigen::VectorXd gold, double lambda) : gold_(std::move(gold)), lambda_(lambda) {}

  // Adds the cut phi(theta) >= a . theta - c.
  void add(const Eigen::VectorXd& a, double c);
  // Minimizer of the proximal master around `center` with weight mu.
  Eigen::VectorXd proximal_step(const Eigen::VectorXd& center, double mu);
  // Value of the plain master (mu = 0): a lower bound on min F.
  double lower_bound();
  // The dual objective at the proximal master's weights: also a lower bound on min F (any
  // point of the simplex gives one), tight when the proximal steps vanish.
  double proximal_lower_bound() const;
  // lambda/2 ||theta||^2 - theta . g + phi_K(theta).
  double model_value(const Eigen::VectorXd& theta) const;
  // lambda/2 ||theta||^2 - theta . g + a . theta - c: the model of F made of the one cut (a, c).
  double cut_value(const Eigen::VectorXd& a, double c, const Eigen::VectorXd& theta) const;
  int size() const { return static_cast<int>(offsets_.size()); }
  double lambda() const { return lambda_; }
  // The cuts the model holds (those not dropped as idle), in the order they were added.
  std::vector<Cut> cuts() const;
  // Drops cuts with zero weight in both masters for `limit` consecutive solves. The lower
  // bounds stay valid (any set of cuts gives one); the masters stay small.
  void drop_idle(int limit);

 private:
  // A point p with the products B^T p = (a_k - g) . p for every held cut, kept up to date as cuts
  // come and go so that the masters never multiply by the D x K matrix B for it again. Their
  // rounding moves only the trial points: the lower bounds use G and c alone.
  struct TrackedPoint {
    Eigen::VectorXd point;
    Eigen::VectorXd products;
    bool valid = false;
  };
  Eigen::Index count() const { return offsets_.size(); }
  auto held_directions() const { return directions_.leftCols(count()); }
  // B^T p, from a tracked point when p is one, else by one pass over B.
  Eigen::VectorXd products_with(const Eigen::VectorXd& p) const;
  // B alpha and alpha^T G alpha over the support of alpha only.
  Eigen::VectorXd combine(const Eigen::VectorXd& alpha) const;
  double gram_form(const Eigen::VectorXd& alpha) const;

  Eigen::VectorXd gold_;
  double lambda_;
  Eigen::MatrixXd directions_;  // D x capacity; the first K columns are a_k - g
  Eigen::VectorXd offsets_;     // c (size K)
  Eigen::MatrixXd gram_;        // B^T B (K x K)
  Eigen::VectorXd proximal_weights_;  // warm starts
  Eigen::VectorXd plain_weights_;
  std::vector<int> idle_;
  TrackedPoint center_;  // the last proximal master's center
  TrackedPoint next_;    // the last proximal master's minimizer
};

// The proximal bundle method over a CutModel. Each iteration the caller evaluates F at theta
// (from above: `upper`, an upper bound on F(theta), exact up to the oracle's accuracy
// `oracle_gap`) with a cut of phi there, then calls step() for the next theta. A serious step
// moves the center to theta when the upper bound fell by at least a tenth of the decrease the
// model predicted; a null step only adds the cut. The proximal weight mu follows Kiwiel's (1990)
// safeguarded proximity control (step(), cut_model.cpp).
class ProximalBundle {
 public:
  // Starts at theta = 0 (or at `center` when given) with proximal weight
  // mu = max(1, ||g||^2, first_weight).
  ProximalBundle(const Eigen::VectorXd& gold, double lambda, double first_weight = 1.0,
                 const Eigen::VectorXd* center = nullptr);

  // Adds a cut known before the first step (e.g. collected for another lambda): it only enters
  // the masters; the center and the proximal weight are left alone.
  void add_cut(const Cut& cut) { cuts_.add(cut.slope, cut.offset); }
  // The cuts the model holds now.
  std::vector<Cut> held_cuts() const { return cuts_.cuts(); }

  // Adds the cut at theta, updates the center and the proximal weight, solves the masters and
  // returns the next theta. `lower_bound` receives the best lower bound on min F so far.
  Eigen::VectorXd step(const Eigen::VectorXd& theta, const Eigen::VectorXd& a, double c, double upper,
                       double oracle_gap, double& lower_bound, int cut_idle_limit);

  // The decrease of F the model predicts for the current theta (infinite before the first step).
  double predicted_decrease() const { return predicted_decrease_; }
  // F at the center (infinite before the first step), and the target a serious step must beat.
  double center_value() const { return center_value_; }
  double serious_target() const { return center_value_ - 0.1 * predicted_decrease_; }
  int serious_steps() const { return serious_steps_; }
  int cuts() const { return cuts_.size(); }
  // The proximal weight of the last master (mu >= 0).
  double proximal_weight() const { return mu_; }

 private:
  // Kiwiel's weight update after a serious (decrease >= 0.1 predicted) or a null step.
  void update_weight(bool serious, double decrease, double linearization_error, double oracle_gap, double gap);

  CutModel cuts_;
  Eigen::VectorXd center_;
  double center_value_;
  double predicted_decrease_;
  double mu_;
  // Steps of one kind in a row since mu last changed: > 0 serious, < 0 null (Kiwiel's i_u).
  int same_steps_ = 0;
  int serious_steps_ = 0;
};

}  // namespace mpg
