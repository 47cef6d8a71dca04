-- 009_content.sql - one game, however many files it came in
-- (user_version 9).
--
-- A .jcz and its flierlog are different bytes, so the upload digest
-- (sha256) keeps both; but they are one game played once, and the
-- players' statistics must count it once. content_sha256 is the digest
-- of the game itself (core/content.c: setup and moves, nothing a format
-- alone keeps); NULL for an unsupported game (not read) and for rows
-- written before this migration, until `flierd reaudit` writes them
-- again. dup_of links a later upload of a stored game's content to the
-- game that counts (itself never a duplicate): its rows are stored as
-- any game's and listed, but the statistics of play (player_totals,
-- player_points, player_figures, score_hist, flight_totals,
-- rule_totals) leave it out; game_totals and expansion_totals count
-- stored uploads and keep it. A live game never links (two tables may
-- start alike, and a live game grows).
--
-- Links are the writer's: it looks the content up in the transaction
-- that writes the game. When the game that counts goes (a delete, or a
-- replace with other content), the first of its duplicates takes its
-- place and is counted then; `flierd check` holds every link to a game
-- that counts with the same content.

ALTER TABLE games ADD COLUMN content_sha256 TEXT;
ALTER TABLE games ADD COLUMN dup_of INTEGER;
CREATE INDEX games_by_content ON games (content_sha256)
    WHERE content_sha256 IS NOT NULL AND source <> 'live';
CREATE INDEX games_by_dup_of ON games (dup_of) WHERE dup_of IS NOT NULL;

-- The delete triggers take away only what was added: nothing for a
-- duplicate. Its children go before its games row, so the row is there.
DROP TRIGGER game_players_ad;
DROP TRIGGER game_players_ad_best;
DROP TRIGGER game_player_points_ad;
DROP TRIGGER flights_ad;
DROP TRIGGER violations_ad;

CREATE TRIGGER game_players_ad AFTER DELETE ON game_players
WHEN (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE player_totals SET
        games = games - 1,
        finished_games = finished_games - OLD.finished,
        wins = wins - OLD.winner,
        score_sum = score_sum - OLD.finished * OLD.score,
        flights = flights - OLD.flights,
        landed = landed - OLD.landed,
        returned = returned - OLD.returned,
        forced = forced - OLD.forced,
        flier_points = flier_points - OLD.flier_points,
        rolls1 = rolls1 - OLD.rolls1,
        rolls2 = rolls2 - OLD.rolls2,
        rolls3 = rolls3 - OLD.rolls3
     WHERE player_id = OLD.player_id;
    DELETE FROM player_totals WHERE player_id = OLD.player_id AND games = 0;
    UPDATE score_hist SET n = n - 1
     WHERE OLD.finished AND bucket = OLD.score / 10;
END;

CREATE TRIGGER game_players_ad_best AFTER DELETE ON game_players
WHEN OLD.finished
 AND (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE player_totals
       SET best = (SELECT max(gp.score) FROM game_players gp
                     JOIN games g ON g.id = gp.game_id
                    WHERE gp.player_id = OLD.player_id AND gp.finished
                      AND g.dup_of IS NULL)
     WHERE player_id = OLD.player_id AND best = OLD.score;
END;

CREATE TRIGGER game_player_points_ad AFTER DELETE ON game_player_points
WHEN (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE player_points SET points = points - OLD.points, n = n - 1
     WHERE player_id = OLD.player_id AND feature = OLD.feature;
END;

CREATE TRIGGER flights_ad AFTER DELETE ON flights
WHEN (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE flight_totals SET
        flights = flights - 1,
        landed = landed - (OLD.outcome = 'landed'),
        returned = returned - (OLD.outcome = 'returned'),
        pending = pending - (OLD.outcome = 'pending'),
        forced = forced - (OLD.n_options = 0 AND NOT OLD.bad_roll)
     WHERE roll = OLD.roll AND diagonal = OLD.diagonal
       AND figure = OLD.figure;
    UPDATE player_figures SET
        flights = flights - 1,
        landed = landed - (OLD.outcome = 'landed'),
        returned = returned - (OLD.outcome = 'returned'),
        pending = pending - (OLD.outcome = 'pending'),
        forced = forced - (OLD.n_options = 0 AND NOT OLD.bad_roll)
     WHERE figure = OLD.figure
       AND player_id = (SELECT gp.player_id FROM game_players gp
                         WHERE gp.game_id = OLD.game_id
                           AND gp.seat = OLD.seat);
END;

CREATE TRIGGER violations_ad AFTER DELETE ON violations
WHEN (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE rule_totals SET n = n - 1 WHERE rule = OLD.rule;
END;
