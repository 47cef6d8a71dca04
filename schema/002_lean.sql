-- 002_lean.sql - the replay is rendered on request; moves and score
-- events are the log's and the audit's.
--
-- game_replay held each game's replay JSON, rendered at ingest: about 80%
-- of the database and of the ingest time, for a document the stored upload
-- (game_raw) and the engine give back in well under a millisecond. moves
-- copied every message of that upload into rows nothing read, and
-- score_events and score_shares copied the audit's score events (kept,
-- with their receipts, in game_report) into rows nothing read either.
-- They go; the upload stays the one source a game is replayed from, and
-- the per-seat sums the statistics need stay in game_players.
DROP TABLE game_replay;
DROP TABLE moves;
DROP TABLE score_shares;
DROP TABLE score_events;
