//! Ending games early on the engines' own scores (two seats only), and a ply cap for every game:
//! a resign rule (both engines agree one side is lost for several moves), a draw rule (both
//! scores near zero for several moves after a given move number) and `--maxplies`.

use super::engine::Score;
use super::game_adapter::Outcome;

/// Adjudication settings; `None` fields are off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdjudicationRules {
    /// `--resign movecount=N,score=CP`: (moves each, centipawns).
    pub resign: Option<(u32, i64)>,
    /// `--draw movenumber=N,movecount=M,score=CP`: (from move number, moves each, centipawns).
    pub draw: Option<(u32, u32, i64)>,
    /// `--maxplies N`: the game is drawn after N decisions.
    pub max_plies: Option<u32>,
}

/// Parses `k1=v1,k2=v2,...` with every key of `keys` given exactly once, each an integer in its
/// range (`keys` holds name, min, max).
fn parse_kv(text: &str, keys: &[(&str, i64, i64)], flag: &str) -> Result<Vec<i64>, String> {
    let mut values: Vec<Option<i64>> = vec![None; keys.len()];
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("{flag} {text:?}: expected key=value"))?;
        let i = keys
            .iter()
            .position(|x| x.0 == k.trim())
            .ok_or_else(|| format!("{flag} {text:?}: unknown key {k:?}"))?;
        let (name, min, max) = keys[i];
        if values[i].is_some() {
            return Err(format!("{flag} {text:?}: {name}= is given twice"));
        }
        let n: i64 = v
            .trim()
            .parse()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                format!("{flag} {text:?}: {name}={v:?} must be an integer from {min} to {max}")
            })?;
        values[i] = Some(n);
    }
    values
        .into_iter()
        .zip(keys)
        .map(|(v, k)| v.ok_or_else(|| format!("{flag} {text:?}: {}= is required", k.0)))
        .collect()
}

/// Largest score threshold (centipawns) the rules take; mates count as ±100000.
pub const MAX_SCORE_CP: i64 = 100_000;

impl AdjudicationRules {
    /// Parses the value of `--resign`: `movecount` 1..=1000, `score` 1..=100000.
    pub fn parse_resign(text: &str) -> Result<(u32, i64), String> {
        let v = parse_kv(
            text,
            &[("movecount", 1, 1000), ("score", 1, MAX_SCORE_CP)],
            "--resign",
        )?;
        Ok((v[0] as u32, v[1]))
    }
    /// Parses the value of `--draw`: `movenumber` 0..=100000, `movecount` 1..=1000, `score`
    /// 0..=100000.
    pub fn parse_draw(text: &str) -> Result<(u32, u32, i64), String> {
        let v = parse_kv(
            text,
            &[
                ("movenumber", 0, 100_000),
                ("movecount", 1, 1000),
                ("score", 0, MAX_SCORE_CP),
            ],
            "--draw",
        )?;
        Ok((v[0] as u32, v[1] as u32, v[2]))
    }
}

/// Follows one game's scores and says when the rules above end it.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: AdjudicationRules,
    seats: usize,
    plies: u32,
    // Per seat: consecutive own moves with score <= -resign, >= +resign, |score| <= draw.
    losing: Vec<u32>,
    winning: Vec<u32>,
    drawish: Vec<u32>,
}

impl Adjudicator {
    /// A fresh adjudicator for a game with `seats` seats.
    pub fn new(rules: AdjudicationRules, seats: usize) -> Self {
        Adjudicator {
            rules,
            seats,
            plies: 0,
            losing: vec![0; seats],
            winning: vec![0; seats],
            drawish: vec![0; seats],
        }
    }

    /// Counts `plies` opening moves toward the ply cap (they were played before the engines).
    pub fn count_book_plies(&mut self, plies: u32) {
        self.plies += plies;
    }

    /// Records a decision of `seat` with its score (from that seat's view); returns an outcome
    /// if the game is adjudicated now.
    pub fn after_move(&mut self, seat: usize, score: Option<Score>) -> Option<Outcome> {
        self.plies += 1;
        if self.seats == 2 {
            let cp = score.map(|s| s.as_cp());
            let bump = |c: &mut u32, hit: bool| *c = if hit { *c + 1 } else { 0 };
            if let Some((count, limit)) = self.rules.resign {
                bump(&mut self.losing[seat], cp.is_some_and(|v| v <= -limit));
                bump(&mut self.winning[seat], cp.is_some_and(|v| v >= limit));
                let other = 1 - seat;
                if count > 0 {
                    if self.losing[seat] >= count && self.winning[other] >= count {
                        return Some(Outcome::win(other, 2, "adjudication: resign rule"));
                    }
                    if self.winning[seat] >= count && self.losing[other] >= count {
                        return Some(Outcome::win(seat, 2, "adjudication: resign rule"));
                    }
                }
            }
            if let Some((from, count, limit)) = self.rules.draw {
                let move_number = self.plies.div_ceil(2);
                bump(
                    &mut self.drawish[seat],
                    move_number >= from && cp.is_some_and(|v| v.abs() <= limit),
                );
                if count > 0 && self.drawish.iter().all(|&d| d >= count) {
                    return Some(Outcome::draw(2, "adjudication: draw rule"));
                }
            }
        }
        match self.rules.max_plies {
            Some(m) if self.plies >= m => Some(Outcome::draw(
                self.seats,
                format!("adjudication: {m} plies reached"),
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_needs_both_engines() {
        let rules = AdjudicationRules {
            resign: Some((2, 500)),
            ..Default::default()
        };
        let mut a = Adjudicator::new(rules, 2);
        assert!(a.after_move(0, Some(Score::Cp(-600))).is_none());
        assert!(a.after_move(1, Some(Score::Cp(100))).is_none());
        assert!(a.after_move(0, Some(Score::Cp(-600))).is_none());
        assert!(a.after_move(1, Some(Score::Cp(700))).is_none());
        assert!(a.after_move(0, Some(Score::Cp(-900))).is_none());
        let o = a.after_move(1, Some(Score::Mate(3))).unwrap();
        assert_eq!(o.result_text(), "0-1");
    }

    #[test]
    fn draw_and_max_plies() {
        let rules = AdjudicationRules {
            draw: Some((2, 2, 10)),
            max_plies: Some(100),
            ..Default::default()
        };
        let mut a = Adjudicator::new(rules, 2);
        assert!(a.after_move(0, Some(Score::Cp(0))).is_none());
        assert!(a.after_move(1, Some(Score::Cp(0))).is_none());
        assert!(a.after_move(0, Some(Score::Cp(5))).is_none());
        assert!(a.after_move(1, Some(Score::Cp(-5))).is_none());
        assert!(a.after_move(0, Some(Score::Cp(1))).is_none());
        let o = a.after_move(1, Some(Score::Cp(0))).unwrap();
        assert_eq!(o.result_text(), "1/2-1/2");
        let mut m = Adjudicator::new(
            AdjudicationRules {
                max_plies: Some(3),
                ..Default::default()
            },
            4,
        );
        assert!(m.after_move(0, None).is_none());
        assert!(m.after_move(1, None).is_none());
        assert!(m.after_move(2, None).is_some());
        assert!(AdjudicationRules::parse_resign("movecount=3,score=800").is_ok());
        assert!(AdjudicationRules::parse_resign("movecount=3").is_err());
        assert!(AdjudicationRules::parse_draw("movenumber=40,movecount=8,score=x").is_err());
        for bad in [
            "movenumber=4294967296,movecount=8,score=10",
            "movenumber=-1,movecount=8,score=10",
            "movenumber=1,movecount=0,score=10",
            "movenumber=1,movecount=8,score=100001",
            "movenumber=1,movenumber=2,movecount=8,score=1",
        ] {
            let e = AdjudicationRules::parse_draw(bad).unwrap_err();
            assert!(
                e.contains("must be an integer from") || e.contains("twice"),
                "{e}"
            );
        }
        assert_eq!(
            AdjudicationRules::parse_draw("movenumber=40,movecount=8,score=10"),
            Ok((40, 8, 10))
        );
        assert!(AdjudicationRules::parse_resign("movecount=3,score=0").is_err());
    }
}
