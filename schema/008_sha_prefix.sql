-- 008_sha_prefix.sql - uploads found by the first 8 hex digits of their
-- digest (user_version 8).
--
-- games_by_sha256 held the whole 64-digit digest of every upload: some
-- 80 bytes an entry, 5,000 pages (41 MB) at 500,000 games. Digests are
-- random, so each game ingested dirtied a page of that index of its own
-- (a third of the WAL written at 500,000 games), and at a million games
-- the index outgrew the writer's cache. Keyed by 8 digits (32 bits) it
-- is a quarter of the size; at a million games one lookup in 4,000
-- meets another upload's prefix, and the digests are then compared.
--
-- The index is no longer UNIQUE: the one writer looks the digest up in
-- the transaction that inserts the game (find_sha, sqlite_write.c), and
-- `flierd check` reports two uploads of the same bytes. Queries must
-- name the expression as written here to use the index, and must keep
-- SQLite from rewriting it: "sha256 = ?" beside it lets the planner
-- substitute the digest into substr() and scan instead (hence the
-- unary + in find_sha, which test_store_check holds to a SEARCH).
DROP INDEX games_by_sha256;
CREATE INDEX games_by_sha_prefix ON games (substr(sha256, 1, 8))
    WHERE source <> 'live';
