-- 011_flight_luck.sql - the flier's luck over all games, and the points
-- flights won (user_version 11).
--
-- flights.points: what the flight's owner received from the scorings in
-- which the figure that landed counted toward the majority, each scoring
-- once (core/audit.h, struct flight). 0 for a flight that did not land;
-- rows written before this migration have 0 until `flierd reaudit`
-- writes them again (the engine alone can tell).
--
-- flight_totals adds what the luck by roll and by direction needs, over
-- the flights with an outcome (landed or returned): thirds = the sum of
-- k, the rolls of the three that offered a landing (the chance before
-- the roll is k / 3, so expected landings = thirds / 3), ninths = the
-- sum of k (3 - k) (the variance of a landing is k (3 - k) / 9), and
-- points, the sum of flights.points. Integers, so that sums taken away
-- on a delete leave no rounding behind. The migration fills thirds and
-- ninths from the stored flights; points start at 0 like the rows.

ALTER TABLE flights ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN thirds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN ninths INTEGER NOT NULL DEFAULT 0;
ALTER TABLE flight_totals ADD COLUMN points INTEGER NOT NULL DEFAULT 0;

-- one pass over the flights (UPDATE ... FROM: SQLite 3.33+)
UPDATE flight_totals SET thirds = x.thirds, ninths = x.ninths
  FROM (SELECT roll, diagonal, figure, sum(k) AS thirds,
               sum(k * (3 - k)) AS ninths
          FROM (SELECT f.roll, f.diagonal, f.figure,
                       (f.n_roll1 > 0) + (f.n_roll2 > 0) + (f.n_roll3 > 0)
                       AS k
                  FROM flights f JOIN games g ON g.id = f.game_id
                 WHERE g.dup_of IS NULL
                   AND f.outcome IN ('landed', 'returned'))
         GROUP BY 1, 2, 3) AS x
 WHERE flight_totals.roll = x.roll AND flight_totals.diagonal = x.diagonal
   AND flight_totals.figure = x.figure;

DROP TRIGGER flights_ad;
CREATE TRIGGER flights_ad AFTER DELETE ON flights
WHEN (SELECT dup_of FROM games WHERE id = OLD.game_id) IS NULL BEGIN
    UPDATE flight_totals SET
        flights = flights - 1,
        landed = landed - (OLD.outcome = 'landed'),
        returned = returned - (OLD.outcome = 'returned'),
        pending = pending - (OLD.outcome = 'pending'),
        forced = forced - (OLD.n_options = 0 AND NOT OLD.bad_roll),
        thirds = thirds - (OLD.outcome IN ('landed', 'returned')) *
            ((OLD.n_roll1 > 0) + (OLD.n_roll2 > 0) + (OLD.n_roll3 > 0)),
        ninths = ninths - (OLD.outcome IN ('landed', 'returned')) *
            ((OLD.n_roll1 > 0) + (OLD.n_roll2 > 0) + (OLD.n_roll3 > 0)) *
            (3 - (OLD.n_roll1 > 0) - (OLD.n_roll2 > 0) - (OLD.n_roll3 > 0)),
        points = points - OLD.points
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
