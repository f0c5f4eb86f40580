#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/learn/optimizer.hpp"

namespace {

using mpg::minimize;
using mpg::OptimizerKind;
using mpg::OptimizerOptions;

// f(x) = 0.5 x^T A x - b^T x with A symmetric positive definite (eigenvalues in [0.58, 5.55] times
// `scale`); minimizer A^{-1} b, and the minimum -0.5 b^T A^{-1} b is negative.
struct Quadratic : mpg::Objective {
  Eigen::MatrixXd A;
  Eigen::VectorXd b;

  explicit Quadratic(double scale = 1.0) : A(5, 5), b(5) {
    Eigen::MatrixXd M(5, 5);
    M << 1.0, 0.2, -0.5, 0.3, 0.0,  //
        0.4, 1.5, 0.1, -0.2, 0.7,   //
        -0.3, 0.0, 2.0, 0.5, 0.1,   //
        0.6, -0.4, 0.2, 1.2, -0.3,  //
        0.1, 0.3, 0.0, -0.6, 0.9;
    A = scale * (M * M.transpose() + 0.5 * Eigen::MatrixXd::Identity(5, 5));
    b << 1.0, -2.0, 0.5, 3.0, -1.5;
  }
  Eigen::VectorXd minimizer() const { return A.ldlt().solve(b); }
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    gradient = A * x - b;
    return 0.5 * x.dot(A * x) - b.dot(x);
  }
};

// f(x, y) = (1 - x)^2 + 100 (y - x^2)^2, minimizer (1, 1).
struct Rosenbrock : mpg::Objective {
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    const double a = 1.0 - x[0];
    const double c = x[1] - x[0] * x[0];
    gradient[0] = -2.0 * a - 400.0 * x[0] * c;
    gradient[1] = 200.0 * c;
    return a * a + 100.0 * c * c;
  }
};

// f(x) = sum_i w_i |x_i - c_i| + 0.5 lambda ||x||^2, convex and non-smooth. Per coordinate the
// minimizer is c_i where lambda |c_i| <= w_i (a kink), else sign(c_i) w_i / lambda.
struct Kinked : mpg::Objective {
  Eigen::VectorXd c;
  Eigen::VectorXd w;
  double lambda = 0.5;

  Kinked() : c(5), w(5) {
    c << 1.0, -2.0, 0.3, 4.0, -0.1;
    w << 1.0, 0.5, 2.0, 1.0, 0.3;
  }
  Eigen::VectorXd minimizer() const {
    Eigen::VectorXd x(c.size());
    for (Eigen::Index i = 0; i < c.size(); ++i) {
      x[i] = lambda * std::abs(c[i]) <= w[i] ? c[i] : std::copysign(w[i] / lambda, c[i]);
    }
    return x;
  }
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    double value = 0.5 * lambda * x.squaredNorm();
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double d = x[i] - c[i];
      value += w[i] * std::abs(d);
      gradient[i] = w[i] * static_cast<double>((d > 0) - (d < 0)) + lambda * x[i];
    }
    return value;
  }
};

// 0.5 ||x - 1||^2, but reports the negated gradient: no step along -gradient decreases it.
struct WrongGradient : mpg::Objective {
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    const Eigen::VectorXd r = x - Eigen::VectorXd::Ones(x.size());
    gradient = -r;
    return 0.5 * r.squaredNorm();
  }
};

// Forwards to another objective and counts the calls.
struct Counting : mpg::Objective {
  explicit Counting(mpg::Objective& wrapped) : inner(wrapped) {}
  mpg::Objective& inner;
  int calls = 0;
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    ++calls;
    return inner.evaluate(x, gradient);
  }
};

// Behaves like the wrapped objective until call number `failing_call`, which throws.
struct ThrowsOnCall : mpg::Objective {
  ThrowsOnCall(mpg::Objective& wrapped, int call) : inner(wrapped), failing_call(call) {}
  mpg::Objective& inner;
  int failing_call;
  int calls = 0;
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    if (++calls == failing_call) throw std::runtime_error("objective failed");
    return inner.evaluate(x, gradient);
  }
};

struct NanAtAnyPoint : mpg::Objective {
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    gradient.setZero();
    return x.size() > 0 ? std::nan("") : 0.0;
  }
};

double value_at(mpg::Objective& objective, const Eigen::VectorXd& x) {
  Eigen::VectorXd gradient(x.size());
  return objective.evaluate(x, gradient);
}

OptimizerOptions options_for(OptimizerKind kind) {
  OptimizerOptions options;
  options.kind = kind;
  return options;
}

}  // namespace

TEST_CASE("optimizer names parse and print", "[optimizer]") {
  CHECK(mpg::parse_optimizer_kind("lbfgs") == OptimizerKind::lbfgs);
  CHECK(mpg::parse_optimizer_kind("adadelta") == OptimizerKind::adadelta);
  CHECK(mpg::to_string(OptimizerKind::lbfgs) == "lbfgs");
  CHECK(mpg::to_string(OptimizerKind::adadelta) == "adadelta");
  CHECK(mpg::parse_optimizer_kind("cutting_plane") == OptimizerKind::cutting_plane);
  CHECK(mpg::to_string(OptimizerKind::cutting_plane) == "cutting_plane");
  CHECK_THROWS_AS(mpg::parse_optimizer_kind("sgd"), mpg::Error);
  CHECK_THROWS_WITH(mpg::parse_optimizer_kind("sgd"),
                    "unknown optimizer 'sgd' (expected lbfgs, adadelta or cutting_plane)");
  CHECK_THROWS_AS(mpg::parse_optimizer_kind("LBFGS"), mpg::Error);
  CHECK_THROWS_AS(mpg::parse_optimizer_kind(""), mpg::Error);
}

TEST_CASE("L-BFGS solves a convex quadratic with a negative minimum", "[optimizer]") {
  // Default options: the relative value test must not stop early although f < 0.
  Quadratic quadratic;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
  const auto summary = minimize(quadratic, theta, options_for(OptimizerKind::lbfgs));
  CHECK(summary.converged());
  CHECK((theta - quadratic.minimizer()).norm() < 1e-6);
  CHECK(summary.initial_value == 0.0);
  CHECK(summary.final_value == Approx(value_at(quadratic, theta)).margin(1e-15));
  CHECK(summary.final_value < 0.0);
  CHECK(summary.gradient_norm < 1e-5);
  CHECK(summary.iterations > 0);
  CHECK(summary.seconds >= 0.0);
  CHECK_FALSE(summary.message.empty());
}

TEST_CASE("AdaDelta approaches the minimizer of a convex quadratic", "[optimizer]") {
  // Near a minimizer AdaDelta's step factor sqrt(E[dx^2]+eps)/sqrt(E[g^2]+eps) tends to 1, which
  // is stable only for curvature below 2: scale A down accordingly.
  Quadratic quadratic(0.25);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
  auto options = options_for(OptimizerKind::adadelta);
  options.max_iterations = 5000;
  options.adadelta_value_tolerance = 1e-8;
  const auto summary = minimize(quadratic, theta, options);
  CHECK(summary.converged());
  CHECK((theta - quadratic.minimizer()).norm() < 1e-3);
  CHECK(summary.final_value < summary.initial_value);
  CHECK(summary.final_value == Approx(value_at(quadratic, theta)).margin(1e-15));
  CHECK(summary.iterations <= options.max_iterations);
  CHECK_FALSE(summary.message.empty());
}

// f(x) = 1 + x_0 with a gradient that points the wrong way: every AdaDelta step raises the value.
struct Rising : mpg::Objective {
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    gradient = -Eigen::VectorXd::Ones(x.size());
    return 1.0 + x[0];
  }
};

TEST_CASE("AdaDelta does not call a rising objective converged", "[optimizer]") {
  // The stop test is the reference code's: the average change per iteration over the last 10
  // iterations relative to |value|, in absolute value. A signed "average decrease" would be
  // negative here and stop at once, as if converged.
  Rising rising;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(2);
  auto options = options_for(OptimizerKind::adadelta);
  options.max_iterations = 40;
  const auto summary = minimize(rising, theta, options);
  CHECK_FALSE(summary.converged());
  CHECK(summary.iterations == 40);
  CHECK(summary.final_value == Approx(1.0));  // the best point seen is the start
}

TEST_CASE("L-BFGS minimizes the Rosenbrock function", "[optimizer]") {
  Rosenbrock rosenbrock;
  Eigen::VectorXd theta(2);
  theta << -1.2, 1.0;
  const auto summary = minimize(rosenbrock, theta, options_for(OptimizerKind::lbfgs));
  CHECK(summary.converged());
  CHECK(theta[0] == Approx(1.0).margin(1e-4));
  CHECK(theta[1] == Approx(1.0).margin(1e-4));
  CHECK(summary.final_value < 1e-8);
}

TEST_CASE("L-BFGS gets close to the optimum of a non-smooth convex function", "[optimizer]") {
  // The value test is off so that L-BFGS runs until its line search gives up at a kink (an
  // error status, converged = false) or the iteration cap is hit.
  Kinked kinked;
  const double optimum = value_at(kinked, kinked.minimizer());
  auto options = options_for(OptimizerKind::lbfgs);
  options.value_tolerance = 0.0;
  options.max_iterations = 1000;
  const std::vector<std::vector<double>> starts = {{0.0, 0.0, 0.0, 0.0, 0.0},
                                                   {3.0, -1.0, 2.0, -4.0, 1.0},
                                                   {-5.0, 5.0, -5.0, 5.0, -5.0},
                                                   {1.0, 1.0, 1.0, 1.0, 1.0},
                                                   {-1.0, 2.0, 0.5, 0.0, 3.0}};
  for (const auto& start : starts) {
    Eigen::VectorXd theta = Eigen::Map<const Eigen::VectorXd>(start.data(), 5);
    INFO("start " << theta.transpose());
    const double start_value = value_at(kinked, theta);
    const auto summary = minimize(kinked, theta, options);
    INFO(summary.message);
    CHECK(summary.final_value <= start_value);
    CHECK(summary.final_value == value_at(kinked, theta));
    CHECK(summary.final_value - optimum < 1e-3);
    CHECK_FALSE(summary.message.empty());
  }
}

TEST_CASE("Cutting planes certify the optimum of a non-smooth convex function", "[optimizer]") {
  // lambda/2 ||x||^2 + sum_i w_i |x_i - c_i|: the cuts approximate the absolute values, the
  // regularizer is exact. The certificate must bracket the known minimum.
  Kinked kinked;
  const double optimum = value_at(kinked, kinked.minimizer());
  auto options = options_for(OptimizerKind::cutting_plane);
  options.regularization = kinked.lambda;
  options.cutting_plane_tolerance = 1e-9;
  options.max_iterations = 1000;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
  const auto summary = minimize(kinked, theta, options);
  INFO(summary.message);
  CHECK(summary.converged());
  CHECK(summary.lower_bound <= optimum + 1e-12);
  CHECK(summary.final_value >= optimum - 1e-12);
  CHECK(summary.final_value - summary.lower_bound <= 1e-9 * std::max(1.0, std::abs(summary.final_value)));
  CHECK((theta - kinked.minimizer()).lpNorm<Eigen::Infinity>() < 1e-4);
  // Without the regularization it cannot run; a capped run is not converged.
  options.regularization = 0.0;
  CHECK_THROWS_AS(minimize(kinked, theta, options), mpg::Error);
  options.regularization = kinked.lambda;
  options.max_iterations = 2;
  theta = Eigen::VectorXd::Zero(5);
  const auto capped = minimize(kinked, theta, options);
  CHECK_FALSE(capped.converged());
  CHECK(capped.iterations == 2);
  CHECK(capped.lower_bound <= optimum + 1e-12);
}

// f(x) = lambda/2 ||x||^2 + max_k (a_k . x + b_k) over 40 pseudo-random pieces in 6 dimensions:
// near the minimum several pieces are active, as in a sum of games.
struct MaxOfPieces : mpg::Objective {
  Eigen::MatrixXd a = Eigen::MatrixXd(40, 6);
  Eigen::VectorXd b = Eigen::VectorXd(40);
  double lambda = 1e-3;
  MaxOfPieces() {
    unsigned state = 12345u;
    auto next = [&] { state = state * 1103515245u + 12345u; return static_cast<double>((state >> 8) % 2001) / 1000.0 - 1.0; };
    for (Eigen::Index k = 0; k < a.rows(); ++k) {
      for (Eigen::Index i = 0; i < a.cols(); ++i) a(k, i) = next();
      b[k] = next();
    }
  }
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    Eigen::Index top = 0;
    const double r = (a * x + b).maxCoeff(&top);
    gradient = lambda * x + a.row(top).transpose();
    return 0.5 * lambda * x.squaredNorm() + r;
  }
};

TEST_CASE("Cutting planes with exact (active-set) masters certify the same optimum", "[optimizer]") {
  // The masters of BMRM solved exactly instead of by coordinate descent: same kind of cuts,
  // valid lower bounds either way, so both runs certify intervals that hold the one minimum.
  MaxOfPieces pieces;
  Kinked kinked;
  kinked.lambda = 1e-3;  // every coordinate at its kink
  for (mpg::Objective* objective : {static_cast<mpg::Objective*>(&pieces), static_cast<mpg::Objective*>(&kinked)}) {
    auto options = options_for(OptimizerKind::cutting_plane);
    options.regularization = 1e-3;
    options.cutting_plane_tolerance = 1e-9;
    options.max_iterations = 5000;
    double lower[2], upper[2];
    for (const bool exact : {false, true}) {
      INFO((objective == &pieces ? "pieces" : "kinked") << (exact ? ", exact master" : ", coordinate descent"));
      options.cutting_plane_exact_master = exact;
      Eigen::VectorXd theta = Eigen::VectorXd::Zero(objective == &pieces ? 6 : 5);
      const auto summary = minimize(*objective, theta, options);
      INFO(summary.message);
      CHECK(summary.converged());
      CHECK(summary.lower_bound <= summary.final_value);
      CHECK(summary.final_value - summary.lower_bound <= 1e-9 * std::max(1.0, std::abs(summary.final_value)));
      CHECK(value_at(*objective, theta) == summary.final_value);
      lower[exact] = summary.lower_bound;
      upper[exact] = summary.final_value;
    }
    CHECK(std::max(lower[0], lower[1]) <= std::min(upper[0], upper[1]));
  }
  // The known minimum of kinked lies in the certified interval.
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
  auto options = options_for(OptimizerKind::cutting_plane);
  options.regularization = 1e-3;
  options.cutting_plane_tolerance = 1e-9;
  options.cutting_plane_exact_master = true;
  const auto summary = minimize(kinked, theta, options);
  CHECK(summary.lower_bound <= value_at(kinked, kinked.minimizer()) + 1e-12);
  CHECK(summary.final_value >= value_at(kinked, kinked.minimizer()) - 1e-12);
}

TEST_CASE("the returned point is never worse than the start", "[optimizer]") {
  // Along -gradient this objective only increases, so no method can improve on the start.
  WrongGradient wrong;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    INFO(mpg::to_string(kind));
    Eigen::VectorXd theta(3);
    theta << 2.0, -1.0, 0.5;
    const Eigen::VectorXd start = theta;
    auto options = options_for(kind);
    options.max_iterations = 50;
    const auto summary = minimize(wrong, theta, options);
    if (kind == OptimizerKind::lbfgs) CHECK_FALSE(summary.converged());
    CHECK(theta == start);
    CHECK(summary.final_value == summary.initial_value);
    CHECK(summary.gradient_norm == Approx((start - Eigen::VectorXd::Ones(3)).norm()));
    CHECK_FALSE(summary.message.empty());
  }
}

TEST_CASE("evaluations, iterations and progress are reported", "[optimizer]") {
  Rosenbrock rosenbrock;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    INFO(mpg::to_string(kind));
    Counting counting(rosenbrock);
    Eigen::VectorXd theta(2);
    theta << -1.2, 1.0;
    auto options = options_for(kind);
    options.max_iterations = 30;
    std::vector<int> reported_iterations;
    std::vector<double> reported_values;
    options.progress = [&](int iteration, double value, double gradient_norm) {
      reported_iterations.push_back(iteration);
      reported_values.push_back(value);
      CHECK(gradient_norm >= 0.0);
    };
    const auto summary = minimize(counting, theta, options);
    CHECK(summary.evaluations == counting.calls);
    CHECK(summary.evaluations >= summary.iterations);
    CHECK(summary.iterations > 0);
    REQUIRE(reported_iterations.size() == static_cast<std::size_t>(summary.iterations));
    for (std::size_t i = 0; i < reported_iterations.size(); ++i) {
      CHECK(reported_iterations[i] == static_cast<int>(i) + 1);
      CHECK(reported_values[i] >= summary.final_value);
    }
    CHECK(summary.final_value <= summary.initial_value);
  }
}

TEST_CASE("hitting the iteration cap is not convergence", "[optimizer]") {
  Rosenbrock rosenbrock;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    INFO(mpg::to_string(kind));
    Eigen::VectorXd theta(2);
    theta << -1.2, 1.0;
    auto options = options_for(kind);
    options.max_iterations = 3;
    const auto summary = minimize(rosenbrock, theta, options);
    CHECK_FALSE(summary.converged());
    CHECK(summary.iterations == 3);
    CHECK_THAT(summary.message, Catch::Contains("iteration limit"));
  }
}

TEST_CASE("a start point that already satisfies the gradient test costs one evaluation",
          "[optimizer]") {
  Quadratic quadratic;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    INFO(mpg::to_string(kind));
    Counting counting(quadratic);
    Eigen::VectorXd theta = quadratic.minimizer();
    const Eigen::VectorXd start = theta;
    const auto summary = minimize(counting, theta, options_for(kind));
    CHECK(summary.converged());
    CHECK(summary.iterations == 0);
    CHECK(summary.evaluations == 1);
    CHECK(counting.calls == 1);
    CHECK(theta == start);
  }
}

TEST_CASE("an empty parameter vector is evaluated once", "[optimizer]") {
  struct Constant : mpg::Objective {
    double evaluate(const Eigen::VectorXd&, Eigen::VectorXd&) override { return 2.5; }
  } constant;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    Counting counting(constant);
    Eigen::VectorXd theta(0);
    const auto summary = minimize(counting, theta, options_for(kind));
    CHECK(counting.calls == 1);
    CHECK(summary.evaluations == 1);
    CHECK(summary.iterations == 0);
    CHECK(summary.initial_value == 2.5);
    CHECK(summary.final_value == 2.5);
    CHECK(theta.size() == 0);
  }
}

TEST_CASE("exceptions from the objective or the progress callback propagate", "[optimizer]") {
  Quadratic quadratic;
  for (const auto kind : {OptimizerKind::lbfgs, OptimizerKind::adadelta}) {
    INFO(mpg::to_string(kind));
    for (const int failing_call : {1, 2, 4}) {
      INFO("failing call " << failing_call);
      ThrowsOnCall throwing(quadratic, failing_call);
      Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
      CHECK_THROWS_AS(minimize(throwing, theta, options_for(kind)), std::runtime_error);
      CHECK(throwing.calls == failing_call);
    }
    auto options = options_for(kind);
    options.progress = [](int iteration, double, double) {
      if (iteration == 2) throw std::runtime_error("progress failed");
    };
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
    CHECK_THROWS_WITH(minimize(quadratic, theta, options), "progress failed");
  }
}

TEST_CASE("a non-finite start point or invalid options are rejected", "[optimizer]") {
  NanAtAnyPoint nan_objective;
  Eigen::VectorXd theta = Eigen::VectorXd::Ones(3);
  CHECK_THROWS_WITH(minimize(nan_objective, theta, options_for(OptimizerKind::lbfgs)),
                    "objective is not finite at the starting point");
  CHECK_THROWS_AS(minimize(nan_objective, theta, options_for(OptimizerKind::adadelta)),
                  mpg::Error);

  Quadratic quadratic;
  Eigen::VectorXd start = Eigen::VectorXd::Zero(5);
  auto options = options_for(OptimizerKind::lbfgs);
  options.max_iterations = 0;
  CHECK_THROWS_AS(minimize(quadratic, start, options), mpg::Error);
  options = options_for(OptimizerKind::adadelta);
  options.adadelta_rho = 1.0;
  CHECK_THROWS_AS(minimize(quadratic, start, options), mpg::Error);
}
