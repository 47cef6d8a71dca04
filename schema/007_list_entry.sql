-- 007_list_entry.sql - the whole list entry rendered once, at write time
-- (user_version 7).
--
-- GET /api/games rendered each of its 50 entries on every request:
-- json_object over sixteen columns and json() re-reading the stored
-- players and winners, the bulk of the list's time, while the uploads
-- beside it took the other core. game_entry.entry holds that object as
-- it was rendered when the game was written (a game changes only by
-- being written again); the list splices it. Rows written before keep it
-- NULL and are rendered as before, so the migration rewrites nothing.

ALTER TABLE game_entry ADD COLUMN entry TEXT;
