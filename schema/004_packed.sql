-- 004_packed.sql - uploads and audits kept as zstd frames (user_version 4).
--
-- codec 'zstd': raw (game_raw) or json (game_report) holds one zstd frame
-- with its content size, which the store decodes on read (the SQL
-- function unpack(data, codec), src/store/sqlite_pack.c); a sixth of the
-- bytes a game took. Rows written before this migration keep codec NULL
-- and are read as they are: nothing is rewritten here, so the migration
-- is instant on any size of database.

ALTER TABLE game_raw ADD COLUMN codec TEXT CHECK (codec IN ('zstd'));
ALTER TABLE game_report ADD COLUMN codec TEXT CHECK (codec IN ('zstd'));
