-- 002_content.sql - one game, however many files it came in (schema
-- version 2; SQLite's 009_content.sql says why and how).
--
-- content_sha256: the digest of the game's setup and moves (NULL for an
-- unsupported game, and for rows written before, until `flierd
-- reaudit`); dup_of: a later upload of a stored game's content, linked
-- to the game that counts. count_games() leaves duplicates out of the
-- statistics of play and keeps them in game_totals and expansion_totals
-- (uploads). Two daemons storing one content at the same moment may
-- both count it (the lookup is not a lock): `flierd check` names such
-- a pair and `flierd reaudit` links it.

ALTER TABLE games ADD COLUMN content_sha256 text;
ALTER TABLE games ADD COLUMN dup_of bigint;
CREATE INDEX games_by_content ON games (content_sha256)
    WHERE content_sha256 IS NOT NULL AND source <> 'live';
CREATE INDEX games_by_dup_of ON games (dup_of) WHERE dup_of IS NOT NULL;

-- The statistics of play of games that count (count_games passes its
-- games without the duplicates; a duplicate that comes to count, when
-- the game it linked to goes, is passed alone).
CREATE FUNCTION count_played(played bigint[], sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO player_totals AS t
    SELECT player_id, sign * count(*), sign * sum(finished),
           sign * sum(winner), sign * sum(finished * score),
           sign * sum(flights), sign * sum(landed), sign * sum(returned),
           sign * sum(forced), sign * sum(flier_points), sign * sum(rolls1),
           sign * sum(rolls2), sign * sum(rolls3)
      FROM game_players WHERE game_id = ANY (played) GROUP BY 1 ORDER BY 1
    ON CONFLICT (player_id) DO UPDATE SET
        games = t.games + excluded.games,
        finished_games = t.finished_games + excluded.finished_games,
        wins = t.wins + excluded.wins,
        score_sum = t.score_sum + excluded.score_sum,
        flights = t.flights + excluded.flights,
        landed = t.landed + excluded.landed,
        returned = t.returned + excluded.returned,
        forced = t.forced + excluded.forced,
        flier_points = t.flier_points + excluded.flier_points,
        rolls1 = t.rolls1 + excluded.rolls1,
        rolls2 = t.rolls2 + excluded.rolls2,
        rolls3 = t.rolls3 + excluded.rolls3;
    -- a player whose last game goes is listed no more
    IF sign < 0 THEN
        DELETE FROM player_totals
         WHERE games = 0 AND player_id IN
               (SELECT player_id FROM game_players WHERE game_id = ANY (played));
    END IF;

    INSERT INTO score_hist AS h (bucket, n)
    SELECT score / 10, sign * count(*) FROM game_players
     WHERE game_id = ANY (played) AND finished = 1 GROUP BY 1 ORDER BY 1
    ON CONFLICT (bucket) DO UPDATE SET n = h.n + excluded.n;

    INSERT INTO player_points AS t (player_id, feature, points, n)
    SELECT player_id, feature, sign * sum(points), sign * count(*)
      FROM game_player_points WHERE game_id = ANY (played)
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (player_id, feature) DO UPDATE SET
        points = t.points + excluded.points, n = t.n + excluded.n;

    INSERT INTO player_figures AS t
    SELECT gp.player_id, f.figure, sign * count(*),
           sign * count(*) FILTER (WHERE f.outcome = 'landed'),
           sign * count(*) FILTER (WHERE f.outcome = 'returned'),
           sign * count(*) FILTER (WHERE f.outcome = 'pending'),
           sign * count(*) FILTER (WHERE f.n_options = 0 AND f.bad_roll = 0)
      FROM flights f JOIN game_players gp
        ON gp.game_id = f.game_id AND gp.seat = f.seat
     WHERE f.game_id = ANY (played) GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (player_id, figure) DO UPDATE SET
        flights = t.flights + excluded.flights,
        landed = t.landed + excluded.landed,
        returned = t.returned + excluded.returned,
        pending = t.pending + excluded.pending,
        forced = t.forced + excluded.forced;

    INSERT INTO flight_totals AS t
    SELECT roll, diagonal, figure, sign * count(*),
           sign * count(*) FILTER (WHERE outcome = 'landed'),
           sign * count(*) FILTER (WHERE outcome = 'returned'),
           sign * count(*) FILTER (WHERE outcome = 'pending'),
           sign * count(*) FILTER (WHERE n_options = 0 AND bad_roll = 0)
      FROM flights WHERE game_id = ANY (played)
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (roll, diagonal, figure) DO UPDATE SET
        flights = t.flights + excluded.flights,
        landed = t.landed + excluded.landed,
        returned = t.returned + excluded.returned,
        pending = t.pending + excluded.pending,
        forced = t.forced + excluded.forced;

    INSERT INTO rule_totals AS t (rule, n)
    SELECT rule, sign * count(*) FROM violations
     WHERE game_id = ANY (played) GROUP BY 1 ORDER BY 1
    ON CONFLICT (rule) DO UPDATE SET n = t.n + excluded.n;
END $$;

CREATE OR REPLACE FUNCTION count_games(ids bigint[], sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO game_totals AS t (status, edition, valid, finished, live, n)
    SELECT status, coalesce(edition, ''), coalesce(valid, -1),
           coalesce(finished, -1), live, sign * count(*)
      FROM games WHERE id = ANY (ids)
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (status, edition, valid, finished, live)
    DO UPDATE SET n = t.n + excluded.n;

    INSERT INTO expansion_totals AS t (expansion, n)
    SELECT expansion, sign * count(*) FROM game_expansions
     WHERE game_id = ANY (ids) GROUP BY 1 ORDER BY 1
    ON CONFLICT (expansion) DO UPDATE SET n = t.n + excluded.n;

    -- the statistics of play: the games that count, no duplicate
    PERFORM count_played(ARRAY(SELECT id FROM games
                                WHERE id = ANY (ids) AND dup_of IS NULL),
                         sign);
END $$;
