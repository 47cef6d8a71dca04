-- 005_batch_totals.sql - the aggregates counted once per transaction
-- (user_version 5).
--
-- The AFTER INSERT triggers kept every *_totals row up to date one detail
-- row at a time: some thirty upserts a game, and in a batch each of them
-- inside the game's savepoint, a third of what ingest spent writing. The
-- store now counts the games a transaction wrote (temp.pending_games) in
-- one GROUP BY per aggregate table just before it commits
-- (sq_flush_pending, src/store/sqlite_write.c): the sums are the same at
-- every commit, which is all another connection can see. Deletes stay
-- triggered (rare: replaces, re-audits); a game written and then
-- replaced in one transaction is counted before its rows go.

DROP TRIGGER games_ai;
DROP TRIGGER game_expansions_ai;
DROP TRIGGER game_players_ai;
DROP TRIGGER game_player_points_ai;
DROP TRIGGER flights_ai;
DROP TRIGGER violations_ai;
