#include "lib/features/ratings.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "lib/base/error.hpp"

namespace mpg {

double EloRatings::rating(int player) const {
  const auto it = players_.find(player);
  return it == players_.end() ? options_.initial : it->second.rating;
}

int EloRatings::games(int player) const {
  const auto it = players_.find(player);
  return it == players_.end() ? 0 : it->second.games;
}

void EloRatings::set(int player, double rating, int games, bool elite) {
  players_[player] = Player{rating, games, elite || rating >= options_.elite_rating};
}

double EloRatings::expected_score(int a, int b) const {
  return 1.0 / (1.0 + std::pow(10.0, (rating(b) - rating(a)) / 400.0));
}

void EloRatings::update(const std::vector<ChessGame>& period) {
  // Ordered by player id so the sums are added in one fixed order whatever the order of games.
  std::map<int, double> change;
  std::map<int, int> played;
  for (const ChessGame& game : period) {
    const double expected = expected_score(game.white, game.black);
    change[game.white] += game.score - expected;
    change[game.black] += (1.0 - game.score) - (1.0 - expected);
    ++played[game.white];
    ++played[game.black];
  }
  std::map<int, double> next;
  for (const auto& [id, delta] : change) {
    const auto it = players_.find(id);
    const double r = it == players_.end() ? options_.initial : it->second.rating;
    const int g = it == players_.end() ? 0 : it->second.games;
    const bool elite = it != players_.end() && it->second.elite;
    const double k = elite ? options_.k_elite : (g >= options_.experienced_games ? options_.k_experienced : options_.k_new);
    next[id] = r + k * delta;
  }
  for (const auto& [id, r] : next) {
    Player& p = players_.try_emplace(id, Player{options_.initial, 0, false}).first->second;
    p.rating = r;
    p.games += played[id];
    p.elite = p.elite || p.rating >= options_.elite_rating;
  }
}

namespace {

constexpr double kQ = 0.0057564627324851142;  // ln(10) / 400

double glicko_g(double deviation) {
  return 1.0 / std::sqrt(1.0 + 3.0 * kQ * kQ * deviation * deviation / (M_PI * M_PI));
}

}  // namespace

double GlickoRatings::rating(int player) const {
  const auto it = players_.find(player);
  return it == players_.end() ? options_.initial_rating : it->second.rating;
}

double GlickoRatings::deviation(int player) const {
  const auto it = players_.find(player);
  return it == players_.end() ? options_.initial_deviation : it->second.deviation;
}

void GlickoRatings::set(int player, double rating, double deviation, int period) {
  if (!(deviation > 0.0)) throw Error("GlickoRatings::set: deviation must be > 0");
  players_[player] = Player{rating, deviation, period};
}

double GlickoRatings::expected_score(int a, int b) const {
  const double combined = std::sqrt(deviation(a) * deviation(a) + deviation(b) * deviation(b));
  return 1.0 / (1.0 + std::pow(10.0, -glicko_g(combined) * (rating(a) - rating(b)) / 400.0));
}

void GlickoRatings::update(int period, const std::vector<ChessGame>& games) {
  // Deviations at the start of the period (inflated for the periods without an update).
  auto start_deviation = [&](int id) {
    const auto it = players_.find(id);
    if (it == players_.end()) return options_.initial_deviation;
    const double t = std::max(0, period - it->second.last_period);
    return std::min(std::sqrt(it->second.deviation * it->second.deviation + options_.c * options_.c * t),
                    options_.max_deviation);
  };
  struct Sums {
    double score = 0.0;        // sum g_j (s_j - E_j)
    double information = 0.0;  // sum g_j^2 E_j (1 - E_j)
  };
  std::map<int, Sums> sums;
  auto add = [&](int me, int opponent, double score) {
    const double g = glicko_g(start_deviation(opponent));
    const double expected = 1.0 / (1.0 + std::pow(10.0, -g * (rating(me) - rating(opponent)) / 400.0));
    Sums& s = sums[me];
    s.score += g * (score - expected);
    s.information += g * g * expected * (1.0 - expected);
  };
  for (const ChessGame& game : games) {
    add(game.white, game.black, game.score);
    add(game.black, game.white, 1.0 - game.score);
  }
  std::map<int, Player> next;
  for (const auto& [id, s] : sums) {
    const double deviation = start_deviation(id);
    const double precision = 1.0 / (deviation * deviation) + kQ * kQ * s.information;  // 1/RD^2 + 1/d^2
    next[id] = Player{rating(id) + kQ / precision * s.score, 1.0 / std::sqrt(precision), period};
  }
  for (const auto& [id, p] : next) players_[id] = p;
}

}  // namespace mpg
