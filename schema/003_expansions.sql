-- 003_expansions.sql - games of any expansion: kept when not auditable
-- yet, and every per-feature and per-figure sum as rows.
--
-- Expansions come one at a time, each with feature kinds ("trade-goods",
-- "barn") and figures ("mayor", "wagon") of its own. So:
--  * games gets status ('audited' | 'unsupported') and reason: an upload
--    of an expansion this engine does not audit yet is kept (its bytes,
--    hash and the reader's "unsupported: ..." message) and audited by a
--    later `flierd reaudit`. Its setup and verdict columns are NULL (never
--    valid nor invalid); CHECKs hold each status to its shape. The
--    edition is no longer held to C2/C3, and elements (JSON, beside sets)
--    records the game elements in play.
--  * game_expansions lists the expansion units a game uses (one row
--    each), so the list filters by expansion through an index, never by
--    reading JSON; expansion_totals counts them.
--  * Points by feature leave game_players (pts_road ... pts_garden) for
--    game_player_points rows, one per seat and feature name; player_points
--    sums them per player. A new feature is a new name, not a column.
--  * flights records the figure that flew (JCloisterZone's meeple kind:
--    small, big, phantom, abbot, ...); flight_totals counts by it too and
--    player_figures per player and figure.
--
-- SQLite cannot drop a CHECK or NOT NULL in place: games is copied into a
-- new table and renamed (SQLite's documented way; the store runs
-- migrations with foreign_keys off and checks the keys before commit).
-- The aggregate tables whose keys change are rebuilt from their detail
-- rows, so they start equal to the sums `flierd check` recomputes.
--
-- What the old rows cannot say: flights stored before this migration
-- have figure 'unknown' (the engine did not record it), and old games have
-- points rows only for features with a non-zero sum. `flierd reaudit`
-- renders every game again and fills both in.

-- ---- games: status, reason, elements; no C2/C3 check ------------------

CREATE TABLE games_new (
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
    status       TEXT    NOT NULL
                         CHECK (status IN ('audited', 'unsupported')),
    -- setup (NULL when unsupported: the engine could not read it)
    edition      TEXT,                     -- 'C2', 'C3'
    followers    INTEGER,
    abbots       INTEGER,
    farmers      INTEGER CHECK (farmers IN (0, 1)),
    gardens      INTEGER CHECK (gardens IN (0, 1)),
    tiny_city    INTEGER,                  -- points of a 2-tile city
    n_players    INTEGER CHECK (n_players BETWEEN 1 AND 6),
    -- verdict (NULL when unsupported: neither valid nor invalid)
    valid        INTEGER CHECK (valid IN (0, 1)),
    finished     INTEGER CHECK (finished IN (0, 1)),
    halted       INTEGER CHECK (halted IN (0, 1)),
    turns        INTEGER,
    tiles_left   INTEGER,
    n_violations INTEGER,
    n_flights    INTEGER,
    best_score   INTEGER,                  -- highest final score
    -- text last: filters and sorts read the columns above
    sets         TEXT,                     -- JSON {"basic:1": 1, ...}
    elements     TEXT,                     -- JSON {"small-follower": 7, ...}
    reason       TEXT,                     -- 'unsupported: The Tower ...'
    CHECK (status = 'audited' AND reason IS NULL AND edition IS NOT NULL
           AND followers IS NOT NULL AND abbots IS NOT NULL
           AND farmers IS NOT NULL AND gardens IS NOT NULL
           AND tiny_city IS NOT NULL AND n_players IS NOT NULL
           AND valid IS NOT NULL AND finished IS NOT NULL
           AND halted IS NOT NULL AND turns IS NOT NULL
           AND tiles_left IS NOT NULL AND n_violations IS NOT NULL
           AND n_flights IS NOT NULL AND best_score IS NOT NULL
           AND sets IS NOT NULL AND elements IS NOT NULL
        OR status = 'unsupported' AND reason IS NOT NULL AND live = 0
           AND coalesce(edition, followers, abbots, farmers, gardens,
                        tiny_city, n_players, valid, finished, halted,
                        turns, tiles_left, n_violations, n_flights,
                        best_score, sets, elements) IS NULL)
);

-- The elements the old setup columns stand for (JCloisterZone's keys, in
-- the engine's order); json_patch leaves out the NULLs.
INSERT INTO games_new
SELECT id, sha256, format, source, name, uploaded_at, raw_size, engine,
       live, 'audited', edition, followers, abbots, farmers, gardens,
       tiny_city, n_players, valid, finished, halted, turns, tiles_left,
       n_violations, n_flights, best_score, sets,
       json_patch('{}', json_object(
           'small-follower', nullif(followers, 0),
           'farmers', iif(farmers, json('true'), NULL),
           'abbot', nullif(abbots, 0),
           'garden', iif(gardens, json('true'), NULL))),
       NULL
  FROM games;

DROP TABLE games;                          -- and its triggers
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_by_sha256 ON games (sha256) WHERE source <> 'live';
CREATE INDEX games_by_date       ON games (uploaded_at, id);
CREATE INDEX games_by_players    ON games (n_players, id);
CREATE INDEX games_by_turns      ON games (turns, id);
CREATE INDEX games_by_violations ON games (n_violations, id);
CREATE INDEX games_by_flights    ON games (n_flights, id);
CREATE INDEX games_by_best       ON games (best_score, id);
CREATE INDEX games_by_valid_date    ON games (valid, uploaded_at, id);
CREATE INDEX games_by_finished_date ON games (finished, uploaded_at, id);
CREATE INDEX games_by_edition_date  ON games (edition, uploaded_at, id);
CREATE INDEX games_by_status_date   ON games (status, uploaded_at, id);

-- ---- the expansion units of each game -----------------------------------

CREATE TABLE game_expansions (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    expansion TEXT    NOT NULL,            -- unit id: 'base', 'river', ...
    PRIMARY KEY (game_id, expansion)
) WITHOUT ROWID;
CREATE INDEX game_expansions_by_expansion
    ON game_expansions (expansion, game_id);

-- Games before this migration: the base game, C3's abbot and garden, The
-- Flier's sets (the only units the engine had).
INSERT INTO game_expansions (game_id, expansion)
SELECT id, 'base' FROM games
UNION ALL
SELECT id, 'c3' FROM games WHERE abbots > 0 OR gardens = 1
UNION ALL
SELECT id, 'flier' FROM games
 WHERE EXISTS (SELECT 1 FROM json_each(games.sets)
                WHERE json_each.key LIKE 'flier:%');

CREATE TABLE expansion_totals (
    expansion TEXT PRIMARY KEY,
    n         INTEGER NOT NULL             -- games using it
) WITHOUT ROWID;
INSERT INTO expansion_totals (expansion, n)
SELECT expansion, count(*) FROM game_expansions GROUP BY expansion;

-- ---- points by feature: rows ------------------------------------------

DROP TRIGGER game_players_ai;
DROP TRIGGER game_players_ad;
DROP TRIGGER flights_ai;
DROP TRIGGER flights_ad;

-- One row per seat and feature name the seat scored with (an event that
-- listed it, even for 0 points). player_id is the seat's (game_players),
-- copied so that the trigger below keeps player_points with no lookup:
-- a game writes a dozen of these rows, and they were a third of its
-- insert time with one. `flierd check` holds the copy to the seat.
CREATE TABLE game_player_points (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    feature   TEXT    NOT NULL,            -- 'road', 'city', 'trade-goods'
    player_id INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, feature)
) WITHOUT ROWID;

INSERT INTO game_player_points (game_id, seat, feature, player_id, points)
SELECT game_id, seat, 'road', player_id, pts_road FROM game_players
 WHERE pts_road <> 0
UNION ALL
SELECT game_id, seat, 'city', player_id, pts_city FROM game_players
 WHERE pts_city <> 0
UNION ALL
SELECT game_id, seat, 'field', player_id, pts_field FROM game_players
 WHERE pts_field <> 0
UNION ALL
SELECT game_id, seat, 'monastery', player_id, pts_monastery
  FROM game_players WHERE pts_monastery <> 0
UNION ALL
SELECT game_id, seat, 'garden', player_id, pts_garden FROM game_players
 WHERE pts_garden <> 0;

ALTER TABLE game_players DROP COLUMN pts_road;
ALTER TABLE game_players DROP COLUMN pts_city;
ALTER TABLE game_players DROP COLUMN pts_field;
ALTER TABLE game_players DROP COLUMN pts_monastery;
ALTER TABLE game_players DROP COLUMN pts_garden;
ALTER TABLE player_totals DROP COLUMN pts_road;
ALTER TABLE player_totals DROP COLUMN pts_city;
ALTER TABLE player_totals DROP COLUMN pts_field;
ALTER TABLE player_totals DROP COLUMN pts_monastery;
ALTER TABLE player_totals DROP COLUMN pts_garden;

CREATE TABLE player_points (
    player_id INTEGER NOT NULL REFERENCES players (id),
    feature   TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    n         INTEGER NOT NULL,            -- game_player_points rows
    PRIMARY KEY (player_id, feature)
) WITHOUT ROWID;
INSERT INTO player_points (player_id, feature, points, n)
SELECT player_id, feature, sum(points), count(*)
  FROM game_player_points GROUP BY player_id, feature;

-- ---- flights by figure ------------------------------------------------

ALTER TABLE flights ADD COLUMN figure TEXT NOT NULL DEFAULT 'unknown';

DROP TABLE flight_totals;
CREATE TABLE flight_totals (
    roll     INTEGER NOT NULL,
    diagonal INTEGER NOT NULL,
    figure   TEXT    NOT NULL,
    flights  INTEGER NOT NULL,
    landed   INTEGER NOT NULL,
    returned INTEGER NOT NULL,
    pending  INTEGER NOT NULL,
    forced   INTEGER NOT NULL,
    PRIMARY KEY (roll, diagonal, figure)
) WITHOUT ROWID;
INSERT INTO flight_totals
SELECT roll, diagonal, figure, count(*), sum(outcome = 'landed'),
       sum(outcome = 'returned'), sum(outcome = 'pending'),
       sum(n_options = 0 AND NOT bad_roll)
  FROM flights GROUP BY roll, diagonal, figure;

CREATE TABLE player_figures (
    player_id INTEGER NOT NULL REFERENCES players (id),
    figure    TEXT    NOT NULL,
    flights   INTEGER NOT NULL,
    landed    INTEGER NOT NULL,
    returned  INTEGER NOT NULL,
    pending   INTEGER NOT NULL,
    forced    INTEGER NOT NULL,
    PRIMARY KEY (player_id, figure)
) WITHOUT ROWID;
INSERT INTO player_figures
SELECT gp.player_id, f.figure, count(*), sum(f.outcome = 'landed'),
       sum(f.outcome = 'returned'), sum(f.outcome = 'pending'),
       sum(f.n_options = 0 AND NOT f.bad_roll)
  FROM flights f
  JOIN game_players gp ON gp.game_id = f.game_id AND gp.seat = f.seat
 GROUP BY gp.player_id, f.figure;

-- ---- game_totals by status ------------------------------------------------

-- An unsupported game has no edition, verdict or end: '' and -1 stand for
-- them here (a key column cannot be NULL), so "valid = 0" or "edition =
-- 'C2'" never counts one.
DROP TABLE game_totals;
CREATE TABLE game_totals (
    status   TEXT    NOT NULL,
    edition  TEXT    NOT NULL,             -- '' when unsupported
    valid    INTEGER NOT NULL,             -- -1 when unsupported
    finished INTEGER NOT NULL,             -- -1 when unsupported
    live     INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (status, edition, valid, finished, live)
) WITHOUT ROWID;
INSERT INTO game_totals
SELECT status, coalesce(edition, ''), coalesce(valid, -1),
       coalesce(finished, -1), live, count(*)
  FROM games GROUP BY 1, 2, 3, 4, 5;

-- ---- the triggers ----------------------------------------------------

CREATE TRIGGER games_ai AFTER INSERT ON games BEGIN
    INSERT INTO game_totals (status, edition, valid, finished, live, n)
    VALUES (NEW.status, coalesce(NEW.edition, ''), coalesce(NEW.valid, -1),
            coalesce(NEW.finished, -1), NEW.live, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER games_ad AFTER DELETE ON games BEGIN
    UPDATE game_totals SET n = n - 1
     WHERE status = OLD.status AND edition = coalesce(OLD.edition, '')
       AND valid = coalesce(OLD.valid, -1)
       AND finished = coalesce(OLD.finished, -1) AND live = OLD.live;
END;

CREATE TRIGGER game_expansions_ai AFTER INSERT ON game_expansions BEGIN
    INSERT INTO expansion_totals (expansion, n) VALUES (NEW.expansion, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER game_expansions_ad AFTER DELETE ON game_expansions BEGIN
    UPDATE expansion_totals SET n = n - 1 WHERE expansion = OLD.expansion;
END;

CREATE TRIGGER game_players_ai AFTER INSERT ON game_players BEGIN
    INSERT INTO player_totals VALUES (NEW.player_id, 1, NEW.finished,
        NEW.winner, NEW.finished * NEW.score, NEW.flights, NEW.landed,
        NEW.returned, NEW.forced, NEW.flier_points, NEW.rolls1, NEW.rolls2,
        NEW.rolls3)
    ON CONFLICT DO UPDATE SET
        games = games + 1,
        finished_games = finished_games + excluded.finished_games,
        wins = wins + excluded.wins,
        score_sum = score_sum + excluded.score_sum,
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

CREATE TRIGGER game_player_points_ai AFTER INSERT ON game_player_points
BEGIN
    INSERT INTO player_points (player_id, feature, points, n)
    VALUES (NEW.player_id, NEW.feature, NEW.points, 1)
    ON CONFLICT DO UPDATE SET points = points + excluded.points, n = n + 1;
END;
CREATE TRIGGER game_player_points_ad AFTER DELETE ON game_player_points
BEGIN
    UPDATE player_points SET points = points - OLD.points, n = n - 1
     WHERE player_id = OLD.player_id AND feature = OLD.feature;
END;

-- A seat's flights are written after its game_players row and deleted
-- before it, so the seat's player is there to be found.

CREATE TRIGGER flights_ai AFTER INSERT ON flights BEGIN
    INSERT INTO flight_totals VALUES (NEW.roll, NEW.diagonal, NEW.figure, 1,
        NEW.outcome = 'landed', NEW.outcome = 'returned',
        NEW.outcome = 'pending', NEW.n_options = 0 AND NOT NEW.bad_roll)
    ON CONFLICT DO UPDATE SET
        flights = flights + 1,
        landed = landed + excluded.landed,
        returned = returned + excluded.returned,
        pending = pending + excluded.pending,
        forced = forced + excluded.forced;
    INSERT INTO player_figures
    SELECT gp.player_id, NEW.figure, 1, NEW.outcome = 'landed',
           NEW.outcome = 'returned', NEW.outcome = 'pending',
           NEW.n_options = 0 AND NOT NEW.bad_roll
      FROM game_players gp
     WHERE gp.game_id = NEW.game_id AND gp.seat = NEW.seat
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
