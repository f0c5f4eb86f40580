#include "lib/data/chess_games.hpp"

#include <charconv>
#include <string_view>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/lines.hpp"

namespace mpg {

namespace {

std::string_view unquoted(std::string_view field) {
  while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) field.remove_prefix(1);
  while (!field.empty() && (field.back() == ' ' || field.back() == '\t' || field.back() == '\r')) field.remove_suffix(1);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') field = field.substr(1, field.size() - 2);
  return field;
}

bool parse_int(std::string_view field, int& value) {
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  return error == std::errc() && end == field.data() + field.size();
}

}  // namespace

int chess_label(double white_score) {
  if (white_score == 1.0) return -1;
  if (white_score == 0.0) return 1;
  if (white_score == 0.5) return 0;
  throw Error("chess score " + std::to_string(white_score) + " is not 0, 0.5 or 1");
}

std::vector<ChessGame> read_chess_games(const std::string& path) {
  const std::string text = read_file(path);
  std::vector<ChessGame> games;
  for_each_line(text, [&](long line_number, std::string_view line) {
    if (unquoted(line).empty()) return;
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
      const auto comma = line.find(',', start);
      fields.push_back(unquoted(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (fields.size() != 4)
      throw InputError(path, line_number, "expected 4 comma-separated fields, got " + std::to_string(fields.size()));
    ChessGame game;
    if (!parse_int(fields[0], game.month)) {
      if (line_number == 1) return;  // header
      throw InputError(path, line_number, "bad month " + excerpt(fields[0]));
    }
    if (game.month < 1) throw InputError(path, line_number, "month " + std::to_string(game.month) + " is not >= 1");
    if (!parse_int(fields[1], game.white) || game.white < 0)
      throw InputError(path, line_number, "bad white player id " + excerpt(fields[1]));
    if (!parse_int(fields[2], game.black) || game.black < 0)
      throw InputError(path, line_number, "bad black player id " + excerpt(fields[2]));
    if (game.white == game.black)
      throw InputError(path, line_number, "player " + std::to_string(game.white) + " plays himself");
    if (fields[3] == "1") {
      game.score = 1.0;
    } else if (fields[3] == "0") {
      game.score = 0.0;
    } else if (fields[3] == "0.5" || fields[3] == ".5") {
      game.score = 0.5;
    } else {
      throw InputError(path, line_number, "bad score " + excerpt(fields[3]) + " (expected 1, 0.5 or 0)");
    }
    games.push_back(game);
  });
  if (games.empty()) throw InputError(path, "no games");
  return games;
}

}  // namespace mpg
