#include "lib/features/chess_features.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "lib/base/error.hpp"

namespace mpg {

const std::vector<std::string>& chess_feature_names() {
  static const std::vector<std::string> names = {
      "elo", "beat_better", "lost_worse", "percent_beat_better", "percent_lost_worse", "games",
      "wins", "draws", "losses", "lag", "elite", "match_history", "avg_rating_diff", "glicko",
      "first_move", "percent_norm"};
  return names;
}

namespace {

struct PlayerHistory {
  int games = 0, wins = 0, draws = 0, losses = 0, beat_better = 0, lost_worse = 0;
  double rating_difference_sum = 0.0;
  int last_month = 0;
  bool elite = false;
};

struct GameRecord {
  ChessGame game;
  Eigen::Matrix<double, 16, 1> white, black;
  double elo_difference = 0.0, glicko_difference = 0.0;
  int white_prior_games = 0, black_prior_games = 0;
};

bool canonical_less(const ChessGame& a, const ChessGame& b) {
  if (a.month != b.month) return a.month < b.month;
  if (a.white != b.white) return a.white < b.white;
  if (a.black != b.black) return a.black < b.black;
  return a.score < b.score;
}

// Walks `games` (canonical order) from an empty state: one record per game with the features and
// rating differences before it. A period is a month (RatingUpdates::month) or a single game
// (RatingUpdates::match): every game of a period reads the state at its start; then the counts are
// updated (comparing with the ratings at the period's start), then the ratings (Elo: K sum (S - E)
// over the period's games; Glicko: one rating period numbered by the month, so RD inflates by c^2
// per month without games and not between games of the same month).
std::vector<GameRecord> walk(const std::vector<ChessGame>& games, const ChessYearOptions& options) {
  EloRatings elo(options.elo);
  GlickoRatings glicko(options.glicko);
  std::unordered_map<int, PlayerHistory> history;
  std::map<std::pair<int, int>, int> head_to_head;  // (a, b) with a < b: wins of a minus wins of b
  std::vector<GameRecord> records;
  records.reserve(games.size());
  for (std::size_t start = 0; start < games.size();) {
    const int month = games[start].month;
    std::size_t end = start + 1;
    if (options.updates == RatingUpdates::month)
      while (end < games.size() && games[end].month == month) ++end;
    const std::vector<ChessGame> period(games.begin() + static_cast<long>(start), games.begin() + static_cast<long>(end));
    for (const ChessGame& game : period) {
      GameRecord record;
      record.game = game;
      auto features = [&](int me, int opponent, bool white) {
        Eigen::Matrix<double, 16, 1> f = Eigen::Matrix<double, 16, 1>::Zero();
        const auto it = history.find(me);
        const PlayerHistory h = it == history.end() ? PlayerHistory{} : it->second;
        const double games_played = h.games;
        f(0) = elo.rating(me);
        f(1) = h.beat_better;
        f(2) = h.lost_worse;
        f(3) = h.games ? h.beat_better / games_played : 0.0;
        f(4) = h.games ? h.lost_worse / games_played : 0.0;
        f(5) = h.games;
        f(6) = h.wins;
        f(7) = h.draws;
        f(8) = h.losses;
        f(9) = h.games ? month - h.last_month : 0.0;
        f(10) = h.elite ? 1.0 : 0.0;
        const auto key = std::minmax(me, opponent);
        const auto hh = head_to_head.find({key.first, key.second});
        const double net = hh == head_to_head.end() ? 0.0 : hh->second;
        f(11) = me == key.first ? net : -net;
        f(12) = h.games ? h.rating_difference_sum / games_played : 0.0;
        f(13) = glicko.rating(me);
        f(14) = white ? 1.0 : 0.0;
        f(15) = h.games ? (h.wins + h.draws) / games_played : 0.0;
        return f;
      };
      record.white = features(game.white, game.black, true);
      record.black = features(game.black, game.white, false);
      record.elo_difference = 2.0 * elo.expected_score(game.black, game.white) - 1.0;
      record.glicko_difference = 2.0 * glicko.expected_score(game.black, game.white) - 1.0;
      const auto w = history.find(game.white), b = history.find(game.black);
      record.white_prior_games = w == history.end() ? 0 : w->second.games;
      record.black_prior_games = b == history.end() ? 0 : b->second.games;
      records.push_back(record);
    }
    // Counts first (they compare with the ratings at the start of the period), then ratings.
    for (const ChessGame& game : period) {
      for (int side = 0; side < 2; ++side) {
        const int me = side == 0 ? game.white : game.black, opponent = side == 0 ? game.black : game.white;
        const double score = side == 0 ? game.score : 1.0 - game.score;
        PlayerHistory& h = history[me];
        const double mine = elo.rating(me), theirs = elo.rating(opponent);
        ++h.games;
        h.wins += score == 1.0;
        h.draws += score == 0.5;
        h.losses += score == 0.0;
        h.beat_better += score == 1.0 && theirs > mine;
        h.lost_worse += score == 0.0 && theirs < mine;
        h.rating_difference_sum += mine - theirs;
        h.last_month = month;
      }
      const auto key = std::minmax(game.white, game.black);
      const double white_net = game.score == 1.0 ? 1.0 : (game.score == 0.0 ? -1.0 : 0.0);
      head_to_head[{key.first, key.second}] += static_cast<int>(game.white == key.first ? white_net : -white_net);
    }
    elo.update(period);
    glicko.update(month, period);
    for (const ChessGame& game : period)
      for (int id : {game.white, game.black}) history[id].elite = history[id].elite || elo.rating(id) >= options.elo.elite_rating;
    start = end;
  }
  return records;
}

}  // namespace

std::vector<ChessYear> chess_year_splits(const std::vector<ChessGame>& input, int years, const ChessYearOptions& options) {
  if (years < 1 || options.months_per_year < 2 || options.train_months < 1 ||
      options.train_months >= options.months_per_year || options.min_games < 0)
    throw Error("chess_year_splits: impossible options (years >= 1, 1 <= train_months < months_per_year)");
  std::vector<ChessGame> games = input;
  std::sort(games.begin(), games.end(), canonical_less);
  const int last_month = options.first_month + years * options.months_per_year - 1;

  // ChessHistory::all: one walk over every game of the file up to the last month, shared by the years.
  std::vector<GameRecord> all_records;
  if (options.history == ChessHistory::all) {
    std::vector<ChessGame> upto;
    for (const ChessGame& g : games)
      if (g.month <= last_month) upto.push_back(g);
    all_records = walk(upto, options);
  }

  std::vector<ChessYear> out;
  for (int year = 0; year < years; ++year) {
    ChessYear split;
    split.year = year;
    split.first_month = options.first_month + year * options.months_per_year;
    const int train_end = split.first_month + options.train_months;  // exclusive
    const int year_end = split.first_month + options.months_per_year;
    // Games per player: in the train window, or in every month up to its end.
    std::unordered_map<int, int> counted;
    for (const ChessGame& g : games) {
      const bool in_train = g.month >= split.first_month && g.month < train_end;
      if (options.count == ChessGameCount::train_window ? in_train : g.month < train_end) {
        ++counted[g.white];
        ++counted[g.black];
      }
    }
    for (const auto& [id, n] : counted) split.kept_players += n >= options.min_games;
    auto kept = [&](const ChessGame& g) {
      const auto w = counted.find(g.white), b = counted.find(g.black);
      const int nw = w == counted.end() ? 0 : w->second, nb = b == counted.end() ? 0 : b->second;
      return nw >= options.min_games && nb >= options.min_games;
    };
    std::vector<GameRecord> year_records;
    if (options.history == ChessHistory::year) {
      // The year's own data set: its games between kept players, walked from an empty state.
      std::vector<ChessGame> year_games;
      for (const ChessGame& g : games)
        if (g.month >= split.first_month && g.month < year_end) {
          ++split.games_before_filter;
          split.draws_before_filter += g.score == 0.5;
          if (kept(g)) year_games.push_back(g);
        }
      year_records = walk(year_games, options);
    } else {
      for (const GameRecord& r : all_records)
        if (r.game.month >= split.first_month && r.game.month < year_end) {
          ++split.games_before_filter;
          split.draws_before_filter += r.game.score == 0.5;
          if (kept(r.game)) year_records.push_back(r);
        }
    }
    std::vector<const GameRecord*> train, test;
    for (const GameRecord& r : year_records) {
      const bool in_train = r.game.month < train_end;
      // §5.1 drops "a player's first match from the train set"; the earlier protocol (all history)
      // also dropped test games of a player without any earlier game.
      const bool first = r.white_prior_games == 0 || r.black_prior_games == 0;
      if (options.drop_first_games && first && (in_train || options.history == ChessHistory::all)) continue;
      (in_train ? train : test).push_back(&r);
    }
    auto fill = [](const std::vector<const GameRecord*>& chosen, PairData& pairs, std::vector<int>& months,
                   std::vector<double>& elo_d, std::vector<double>& glicko_d) {
      pairs.first.resize(static_cast<long>(chosen.size()), 16);
      pairs.second.resize(static_cast<long>(chosen.size()), 16);
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        pairs.first.row(static_cast<long>(i)) = chosen[i]->white.transpose();
        pairs.second.row(static_cast<long>(i)) = chosen[i]->black.transpose();
        pairs.labels.push_back(chess_label(chosen[i]->game.score));
        months.push_back(chosen[i]->game.month);
        elo_d.push_back(chosen[i]->elo_difference);
        glicko_d.push_back(chosen[i]->glicko_difference);
      }
    };
    fill(train, split.train, split.train_months, split.train_elo, split.train_glicko);
    fill(test, split.test, split.test_months, split.test_elo, split.test_glicko);
    out.push_back(std::move(split));
  }
  return out;
}

}  // namespace mpg
