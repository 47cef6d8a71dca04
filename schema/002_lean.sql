-- 002_lean.sql - the replay is rendered on request; moves are the log's.
--
-- game_replay held each game's replay JSON, rendered at ingest: about 80%
-- of the database and of the ingest time, for a document the stored upload
-- (game_raw) and the engine give back in well under a millisecond. moves
-- copied every message of that upload into rows nothing read. Both go;
-- the upload stays the one source a game is replayed from.
DROP TABLE game_replay;
DROP TABLE moves;
