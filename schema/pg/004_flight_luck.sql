-- 004_flight_luck.sql - the flier's luck over all games, and the points
-- flights won (schema version 4; SQLite's 011_flight_luck.sql says why
-- and how).
--
-- flights.points: the points a flight's landed figure won its owner
-- (0 until `flierd reaudit` for rows written before); flight_totals'
-- thirds, ninths and points: the sums of k, k (3 - k) (k: the rolls of
-- three that offered a landing) over the flights with an outcome, and
-- of points. count_played() adds them; this fills thirds and ninths
-- from the stored flights of the games that count.

ALTER TABLE flights ADD COLUMN points integer NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN thirds bigint NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN ninths bigint NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN points bigint NOT NULL DEFAULT 0;

UPDATE flight_totals t SET thirds = x.thirds, ninths = x.ninths
  FROM (SELECT roll, diagonal, figure, sum(k) AS thirds,
               sum(k * (3 - k)) AS ninths
          FROM (SELECT f.roll, f.diagonal, f.figure,
                       (f.n_roll1 > 0)::int + (f.n_roll2 > 0)::int
                       + (f.n_roll3 > 0)::int AS k
                  FROM flights f JOIN games g ON g.id = f.game_id
                 WHERE g.dup_of IS NULL
                   AND f.outcome IN ('landed', 'returned')) y
         GROUP BY 1, 2, 3) x
 WHERE t.roll = x.roll AND t.diagonal = x.diagonal AND t.figure = x.figure;

-- The statistics of play of games that count, as 002_content.sql has
-- them, with the luck's sums in flight_totals.
CREATE OR REPLACE FUNCTION count_played(played bigint[], sign integer) RETURNS void
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
           sign * count(*) FILTER (WHERE n_options = 0 AND bad_roll = 0),
           sign * coalesce(sum(k) FILTER (WHERE decided), 0),
           sign * coalesce(sum(k * (3 - k)) FILTER (WHERE decided), 0),
           sign * sum(points)
      FROM (SELECT roll, diagonal, figure, outcome, n_options, bad_roll,
                   points, outcome IN ('landed', 'returned') AS decided,
                   (n_roll1 > 0)::int + (n_roll2 > 0)::int
                   + (n_roll3 > 0)::int AS k
              FROM flights WHERE game_id = ANY (played)) f
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (roll, diagonal, figure) DO UPDATE SET
        flights = t.flights + excluded.flights,
        landed = t.landed + excluded.landed,
        returned = t.returned + excluded.returned,
        pending = t.pending + excluded.pending,
        forced = t.forced + excluded.forced,
        thirds = t.thirds + excluded.thirds,
        ninths = t.ninths + excluded.ninths,
        points = t.points + excluded.points;

    INSERT INTO rule_totals AS t (rule, n)
    SELECT rule, sign * count(*) FROM violations
     WHERE game_id = ANY (played) GROUP BY 1 ORDER BY 1
    ON CONFLICT (rule) DO UPDATE SET n = t.n + excluded.n;
END $$;
