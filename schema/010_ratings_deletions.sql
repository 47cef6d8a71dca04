-- 010_ratings_deletions.sql - a rating per player, and deleted games
-- remembered (user_version 10).
--
-- rating_history: each rated game's players' beliefs after it (the
-- Weng-Lin / Plackett-Luce rating of core/rating.h: mu, sigma, and the
-- mu - 3 sigma shown, to hundredths). A player's rating is their last
-- row in the play order (played_at: the upload time, then the game id;
-- logs carry no date of play). Rated: audited, valid, finished, not
-- live, counted (no duplicate), two players or more. The rows are
-- derived: a transaction that writes or deletes a game computes them
-- again from the earliest place in the play order it touched, before it
-- commits (store_rating.h), so no foreign key holds them to games (the
-- games row goes before they are rewritten); `flierd check` holds them
-- to a pass over the rated games from the start.
--
-- rating_stale: the place from which the ratings are still to compute.
-- This migration cannot rate in SQL: a writer that opens the database
-- finds the row, rates every game and deletes it.
--
-- deletions: a game deleted through the API is gone with all its rows;
-- what is kept is that it was, by whom and when: its id, digests and
-- name, the time (the daemon's clock), and a fingerprint of the upload
-- token that deleted it (never the token).

CREATE TABLE rating_history (
    game_id    INTEGER NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    played_at  INTEGER NOT NULL,           -- the game's uploaded_at
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    shown      REAL    NOT NULL,           -- mu - 3 sigma, to hundredths
    PRIMARY KEY (game_id, player_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_by_player
    ON rating_history (player_id, played_at, game_id);
CREATE INDEX rating_history_by_order ON rating_history (played_at, game_id);

CREATE TABLE rating_stale (
    one        INTEGER PRIMARY KEY CHECK (one = 1),
    played_at  INTEGER NOT NULL,
    game_id    INTEGER NOT NULL
);
INSERT INTO rating_stale (one, played_at, game_id)
SELECT 1, min(uploaded_at), 0 FROM games HAVING count(*) > 0;

CREATE TABLE deletions (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL,       -- the id the game had
    sha256         TEXT    NOT NULL,       -- its upload's digest
    content_sha256 TEXT,
    name           TEXT,
    deleted_at     INTEGER NOT NULL,       -- unix seconds
    token_fp       TEXT    NOT NULL        -- the token's fingerprint
);
CREATE INDEX deletions_by_game ON deletions (game_id);
