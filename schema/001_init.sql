-- 001_init.sql - the first schema of the flierd store (user_version 1).
--
-- Invariants (docs/schema.md explains each table and the queries that use
-- each index):
--  * One game is written in one transaction: a games row and all its child
--    rows appear and disappear together. A replace deletes the children,
--    then the games row, and writes them again with the same id.
--  * Children are deleted before their games row (the code does it, in
--    that order), so the aggregate triggers below always see a consistent
--    game; there is no ON DELETE CASCADE.
--  * The *_totals and score_hist tables are sums over the detail tables,
--    kept by triggers on INSERT and DELETE only; rows are never updated in
--    place, so the triggers see every change.
--  * Bulky text (the upload, the audit, the replay, the rendered players)
--    lives in its own tables so that rows of games stay short.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    sha256       TEXT    NOT NULL CHECK (length(sha256) = 64),
    format       TEXT    NOT NULL CHECK (format IN ('jcz', 'flierlog')),
    source       TEXT    NOT NULL
                         CHECK (source IN ('http', 'spool', 'cli', 'live')),
    name         TEXT,
    uploaded_at  INTEGER NOT NULL,         -- unix seconds
    raw_size     INTEGER NOT NULL,
    engine       TEXT    NOT NULL,         -- 'flierd 0.2.0': who judged
    live         INTEGER NOT NULL CHECK (live IN (0, 1)),
    -- setup
    edition      TEXT    NOT NULL CHECK (edition IN ('C2', 'C3')),
    sets         TEXT    NOT NULL,         -- JSON {"basic:1": 1, ...}
    followers    INTEGER NOT NULL,
    abbots       INTEGER NOT NULL,
    farmers      INTEGER NOT NULL CHECK (farmers IN (0, 1)),
    gardens      INTEGER NOT NULL CHECK (gardens IN (0, 1)),
    tiny_city    INTEGER NOT NULL,         -- points of a 2-tile city
    n_players    INTEGER NOT NULL CHECK (n_players BETWEEN 1 AND 6),
    -- verdict
    valid        INTEGER NOT NULL CHECK (valid IN (0, 1)),
    finished     INTEGER NOT NULL CHECK (finished IN (0, 1)),
    halted       INTEGER NOT NULL CHECK (halted IN (0, 1)),
    turns        INTEGER NOT NULL,
    tiles_left   INTEGER NOT NULL,
    n_violations INTEGER NOT NULL,
    n_flights    INTEGER NOT NULL,
    best_score   INTEGER NOT NULL          -- highest final score
);
-- Identical uploads are one game; recorded live games never dedupe (two
-- tables may start alike).
CREATE UNIQUE INDEX games_by_sha256 ON games (sha256) WHERE source <> 'live';
-- One per sort key of GET /api/games; id breaks ties in both directions.
CREATE INDEX games_by_date       ON games (uploaded_at, id);
CREATE INDEX games_by_players    ON games (n_players, id);
CREATE INDEX games_by_turns      ON games (turns, id);
CREATE INDEX games_by_violations ON games (n_violations, id);
CREATE INDEX games_by_flights    ON games (n_flights, id);
CREATE INDEX games_by_best       ON games (best_score, id);
-- The common filters with the default sort (newest first).
CREATE INDEX games_by_valid_date    ON games (valid, uploaded_at, id);
CREATE INDEX games_by_finished_date ON games (finished, uploaded_at, id);
CREATE INDEX games_by_edition_date  ON games (edition, uploaded_at, id);

-- The parts of a list entry rendered once at insert (kept out of games,
-- whose rows the filters and counts touch by the thousand).
CREATE TABLE game_entry (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    players_json TEXT NOT NULL,            -- [{"name","color","score",...}]
    winners_json TEXT NOT NULL             -- ["Ben"]
);
-- The q filter: file and player names, one per line; rowid = games.id.
-- Trigrams make any substring of 3+ characters an index lookup.
CREATE VIRTUAL TABLE game_search USING fts5 (text, tokenize = 'trigram');

CREATE TABLE game_raw (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    raw     BLOB NOT NULL                  -- the upload, byte for byte
);
CREATE TABLE game_report (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    json    TEXT NOT NULL                  -- the audit object, verbatim
);
CREATE TABLE game_replay (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    json    TEXT NOT NULL                  -- the replay, verbatim
);

CREATE TABLE players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE              -- exact, as logged
);

-- One row per seat, with the per-game sums the player pages add up.
CREATE TABLE game_players (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    color         TEXT,
    score         INTEGER NOT NULL,        -- final (or current) score
    rank          INTEGER NOT NULL,        -- 1 + players with more points
    claimed       INTEGER,                 -- the log's final claim, or NULL
    finished      INTEGER NOT NULL CHECK (finished IN (0, 1)),
    winner        INTEGER NOT NULL CHECK (winner IN (0, 1)),
    pts_road      INTEGER NOT NULL,
    pts_city      INTEGER NOT NULL,
    pts_field     INTEGER NOT NULL,
    pts_monastery INTEGER NOT NULL,
    pts_garden    INTEGER NOT NULL,
    flights       INTEGER NOT NULL,
    landed        INTEGER NOT NULL,
    returned      INTEGER NOT NULL,
    forced        INTEGER NOT NULL,        -- flights whose roll offered none
    flier_points  INTEGER NOT NULL,        -- scored with a meeple that flew
    rolls1        INTEGER NOT NULL,
    rolls2        INTEGER NOT NULL,
    rolls3        INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_player ON game_players (player_id, game_id);
CREATE INDEX game_players_best ON game_players (player_id, finished, score);

-- Every message of the log, in file order.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    idx       INTEGER NOT NULL,            -- position in the log
    turn      INTEGER NOT NULL,            -- 0 before the first tile
    seat      INTEGER,                     -- as logged, NULL if none named
    action    TEXT    NOT NULL CHECK (action IN ('place', 'discard',
                  'deploy', 'flight', 'land', 'pass', 'recall', 'commit')),
    tile      TEXT,                        -- tile id as written
    x         INTEGER,
    y         INTEGER,
    rot       INTEGER CHECK (rot BETWEEN 0 AND 3),
    segment   TEXT,                        -- 'city:NE', 'monastery', ...
    meeple    TEXT CHECK (meeple IN ('follower', 'abbot')),
    meeple_n  INTEGER,
    roll      INTEGER,                     -- flight: the die as logged
    src       INTEGER NOT NULL,            -- message index in the file
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE flights (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    idx       INTEGER NOT NULL,
    turn      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    from_x    INTEGER NOT NULL,
    from_y    INTEGER NOT NULL,
    dir       TEXT    NOT NULL,            -- 'N', 'NE', ... 'NW'
    diagonal  INTEGER NOT NULL CHECK (diagonal IN (0, 1)),
    roll      INTEGER NOT NULL,
    bad_roll  INTEGER NOT NULL CHECK (bad_roll IN (0, 1)),
    target_x  INTEGER NOT NULL,
    target_y  INTEGER NOT NULL,
    outcome   TEXT    NOT NULL
                      CHECK (outcome IN ('landed', 'returned', 'pending')),
    landing   TEXT,                        -- segment landed on, or NULL
    n_options INTEGER NOT NULL,            -- valid landings on the target
    options   TEXT    NOT NULL,            -- JSON ["road:E", "city:N"]
    n_roll1   INTEGER NOT NULL,            -- landings roll 1 would offer
    n_roll2   INTEGER NOT NULL,
    n_roll3   INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE score_events (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    idx       INTEGER NOT NULL,
    turn      INTEGER,                     -- NULL: final scoring
    feature   TEXT    NOT NULL CHECK (feature IN ('road', 'city', 'field',
                                      'monastery', 'garden')),
    points    INTEGER NOT NULL,            -- per listed player
    players   INTEGER NOT NULL,            -- bit per seat that scored
    fliers    INTEGER NOT NULL,            -- bit per seat helped by a flier
    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
    recall    INTEGER NOT NULL CHECK (recall IN (0, 1)),
    tiny      INTEGER NOT NULL CHECK (tiny IN (0, 1)),
    tiles     INTEGER NOT NULL,
    pennants  INTEGER NOT NULL,
    cities    INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
-- Per seat of an event: every seat with meeples on it or points from it.
CREATE TABLE score_shares (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    event_idx INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    meeples   INTEGER NOT NULL,
    points    INTEGER NOT NULL,            -- 0 when outnumbered
    by_flier  INTEGER NOT NULL CHECK (by_flier IN (0, 1)),
    PRIMARY KEY (game_id, event_idx, seat)
) WITHOUT ROWID;

CREATE TABLE violations (
    game_id INTEGER NOT NULL REFERENCES games (id),
    idx     INTEGER NOT NULL,
    turn    INTEGER,                       -- NULL: at final scoring
    seat    INTEGER,                       -- NULL if unknown
    rule    TEXT    NOT NULL,              -- 'TILE_EDGE_MISMATCH', ...
    src     INTEGER NOT NULL,
    message TEXT    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
CREATE INDEX violations_by_rule ON violations (rule, game_id);

-- ---- aggregates, kept by the triggers below ---------------------------

CREATE TABLE game_totals (
    edition  TEXT    NOT NULL,
    valid    INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    live     INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (edition, valid, finished, live)
) WITHOUT ROWID;

CREATE TABLE player_totals (
    player_id      INTEGER PRIMARY KEY REFERENCES players (id),
    games          INTEGER NOT NULL,
    finished_games INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    score_sum      INTEGER NOT NULL,       -- over finished games
    pts_road       INTEGER NOT NULL,
    pts_city       INTEGER NOT NULL,
    pts_field      INTEGER NOT NULL,
    pts_monastery  INTEGER NOT NULL,
    pts_garden     INTEGER NOT NULL,
    flights        INTEGER NOT NULL,
    landed         INTEGER NOT NULL,
    returned       INTEGER NOT NULL,
    forced         INTEGER NOT NULL,
    flier_points   INTEGER NOT NULL,
    rolls1         INTEGER NOT NULL,
    rolls2         INTEGER NOT NULL,
    rolls3         INTEGER NOT NULL
);

-- Final scores of finished games, in buckets of 10 points.
CREATE TABLE score_hist (
    bucket INTEGER PRIMARY KEY,            -- score / 10
    n      INTEGER NOT NULL
);

CREATE TABLE flight_totals (
    roll     INTEGER NOT NULL,
    diagonal INTEGER NOT NULL,
    flights  INTEGER NOT NULL,
    landed   INTEGER NOT NULL,
    returned INTEGER NOT NULL,
    pending  INTEGER NOT NULL,
    forced   INTEGER NOT NULL,
    PRIMARY KEY (roll, diagonal)
) WITHOUT ROWID;

CREATE TABLE rule_totals (
    rule TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER games_ai AFTER INSERT ON games BEGIN
    INSERT INTO game_totals (edition, valid, finished, live, n)
    VALUES (NEW.edition, NEW.valid, NEW.finished, NEW.live, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER games_ad AFTER DELETE ON games BEGIN
    UPDATE game_totals SET n = n - 1
     WHERE edition = OLD.edition AND valid = OLD.valid
       AND finished = OLD.finished AND live = OLD.live;
END;

CREATE TRIGGER game_players_ai AFTER INSERT ON game_players BEGIN
    INSERT INTO player_totals VALUES (NEW.player_id, 1, NEW.finished,
        NEW.winner, NEW.finished * NEW.score, NEW.pts_road, NEW.pts_city,
        NEW.pts_field, NEW.pts_monastery, NEW.pts_garden, NEW.flights,
        NEW.landed, NEW.returned, NEW.forced, NEW.flier_points, NEW.rolls1,
        NEW.rolls2, NEW.rolls3)
    ON CONFLICT DO UPDATE SET
        games = games + 1,
        finished_games = finished_games + excluded.finished_games,
        wins = wins + excluded.wins,
        score_sum = score_sum + excluded.score_sum,
        pts_road = pts_road + excluded.pts_road,
        pts_city = pts_city + excluded.pts_city,
        pts_field = pts_field + excluded.pts_field,
        pts_monastery = pts_monastery + excluded.pts_monastery,
        pts_garden = pts_garden + excluded.pts_garden,
        flights = flights + excluded.flights,
        landed = landed + excluded.landed,
        returned = returned + excluded.returned,
        forced = forced + excluded.forced,
        flier_points = flier_points + excluded.flier_points,
        rolls1 = rolls1 + excluded.rolls1,
        rolls2 = rolls2 + excluded.rolls2,
        rolls3 = rolls3 + excluded.rolls3;
    INSERT INTO score_hist (bucket, n)
    SELECT NEW.score / 10, 1 WHERE NEW.finished
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER game_players_ad AFTER DELETE ON game_players BEGIN
    UPDATE player_totals SET
        games = games - 1,
        finished_games = finished_games - OLD.finished,
        wins = wins - OLD.winner,
        score_sum = score_sum - OLD.finished * OLD.score,
        pts_road = pts_road - OLD.pts_road,
        pts_city = pts_city - OLD.pts_city,
        pts_field = pts_field - OLD.pts_field,
        pts_monastery = pts_monastery - OLD.pts_monastery,
        pts_garden = pts_garden - OLD.pts_garden,
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

CREATE TRIGGER flights_ai AFTER INSERT ON flights BEGIN
    INSERT INTO flight_totals VALUES (NEW.roll, NEW.diagonal, 1,
        NEW.outcome = 'landed', NEW.outcome = 'returned',
        NEW.outcome = 'pending', NEW.n_options = 0 AND NOT NEW.bad_roll)
    ON CONFLICT DO UPDATE SET
        flights = flights + 1,
        landed = landed + excluded.landed,
        returned = returned + excluded.returned,
        pending = pending + excluded.pending,
        forced = forced + excluded.forced;
END;
CREATE TRIGGER flights_ad AFTER DELETE ON flights BEGIN
    UPDATE flight_totals SET
        flights = flights - 1,
        landed = landed - (OLD.outcome = 'landed'),
        returned = returned - (OLD.outcome = 'returned'),
        pending = pending - (OLD.outcome = 'pending'),
        forced = forced - (OLD.n_options = 0 AND NOT OLD.bad_roll)
     WHERE roll = OLD.roll AND diagonal = OLD.diagonal;
END;

CREATE TRIGGER violations_ai AFTER INSERT ON violations BEGIN
    INSERT INTO rule_totals (rule, n) VALUES (NEW.rule, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER violations_ad AFTER DELETE ON violations BEGIN
    UPDATE rule_totals SET n = n - 1 WHERE rule = OLD.rule;
END;
