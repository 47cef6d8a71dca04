-- 006_player_best.sql - a player's best score kept in player_totals
-- (user_version 6).
--
-- The index game_players_best (player_id, finished, score) answered the
-- best score of each player, but every seat written put a row at a
-- random place in it: past some 50,000 games that was one more page
-- dirtied, logged and checkpointed per seat, and ingest slowed by a
-- fifth. player_totals.best is the highest score of the player's
-- finished games (NULL: none), raised as games are counted
-- (sq_flush_pending) and, when a game holding a best is deleted, looked
-- for again among the player's other games (rare: replaces, re-audits;
-- live games are unfinished until their last move).

ALTER TABLE player_totals ADD COLUMN best INTEGER;
UPDATE player_totals
   SET best = (SELECT max(score) FROM game_players gp
                WHERE gp.player_id = player_totals.player_id
                  AND gp.finished);
DROP INDEX game_players_best;

CREATE TRIGGER game_players_ad_best AFTER DELETE ON game_players
WHEN OLD.finished BEGIN
    UPDATE player_totals
       SET best = (SELECT max(score) FROM game_players gp
                    WHERE gp.player_id = OLD.player_id AND gp.finished)
     WHERE player_id = OLD.player_id AND best = OLD.score;
END;
