//! Texel tuning of a linear evaluation: the scaling constant `K` and the weights that minimise the
//! mean squared error between each position's game result and the logistic of its evaluation,
//! `1 / (1 + 10^(-K·eval/400))`. Deterministic: full passes in a fixed order, no randomness.

/// Positions as feature vectors (the evaluation is the dot product with the weights, from the
/// first player's point of view) with the first player's result in 0..=1. Rows are kept sparse
/// (feature index and value of the non-zero features): a position touches a few dozen of the
/// hundreds of piece-square features.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    width: usize,
    /// The non-zero features of every row, row after row.
    entries: Vec<(u32, i32)>,
    /// Where each row's entries start in `entries` (one more than rows: the end).
    starts: Vec<usize>,
    results: Vec<f64>,
}

impl Dataset {
    /// An empty dataset of `width` features per position.
    pub fn new(width: usize) -> Dataset {
        Dataset {
            width,
            starts: vec![0],
            ..Dataset::default()
        }
    }

    /// Adds a position: its features (`width` of them) and the game's result for the first player.
    /// Errors on a wrong feature count or a result outside 0..=1.
    pub fn push(&mut self, features: &[i32], result: f64) -> Result<(), String> {
        if features.len() != self.width {
            return Err(format!(
                "{} features for a dataset of {}",
                features.len(),
                self.width
            ));
        }
        if !(0.0..=1.0).contains(&result) {
            return Err(format!("result {result} is outside 0..=1"));
        }
        self.entries.extend(
            features
                .iter()
                .enumerate()
                .filter(|(_, &f)| f != 0)
                .map(|(j, &f)| (j as u32, f)),
        );
        self.starts.push(self.entries.len());
        self.results.push(result);
        Ok(())
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Features per position.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The non-zero features of position `i`: (index, value), by increasing index.
    fn row(&self, i: usize) -> &[(u32, i32)] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }

    /// Position `i`'s evaluation under real-valued `weights`.
    fn eval_of(&self, i: usize, weights: &[f64]) -> f64 {
        self.row(i)
            .iter()
            .map(|&(j, f)| f as f64 * weights[j as usize])
            .sum()
    }

    /// Every position's evaluation under `weights`.
    fn evals(&self, weights: &[i32]) -> Vec<f64> {
        let w: Vec<f64> = weights.iter().map(|&x| x as f64).collect();
        (0..self.len()).map(|i| self.eval_of(i, &w)).collect()
    }

    /// The mean squared error of the predictions `σ(K·eval)` under `weights`.
    pub fn loss(&self, weights: &[i32], k: f64) -> f64 {
        let evals = self.evals(weights);
        mean_error(&evals, &self.results, k)
    }
}

/// The predicted score of an evaluation in centipawns at scaling `k`.
pub fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn mean_error(evals: &[f64], results: &[f64], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(results)
        .map(|(&e, &r)| (r - sigmoid(e, k)).powi(2))
        .sum();
    sum / evals.len() as f64
}

/// Range searched for `K`.
const K_RANGE: (f64, f64) = (0.01, 10.0);

/// The `K` in 0.01..=10 that minimises the loss of `weights` (golden-section search on log K; the
/// loss is unimodal in K for any dataset with both wins and losses).
pub fn fit_k(data: &Dataset, weights: &[i32]) -> f64 {
    let evals = data.evals(weights);
    let f = |lk: f64| mean_error(&evals, &data.results, lk.exp());
    let (mut a, mut b) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..100 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// What [`tune`] may change and how.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Per weight: whether it is tuned (else kept).
    pub free: Vec<bool>,
    /// Per weight: the least value allowed.
    pub lower: Vec<i32>,
    /// Step sizes of [`coordinate_descent`], largest first: at each step the search moves every
    /// free weight by it while the loss falls, pass after pass, until a whole pass changes
    /// nothing.
    pub steps: Vec<i32>,
    /// Most passes per step size.
    pub max_passes: usize,
    /// Strength of the pull towards the starting weights: `prior · ((w - start) / 100)²` per
    /// free weight is added to the loss (0: none). Keeps weights that the data hardly
    /// determines (rare pieces, correlated terms) near where they were.
    pub prior: f64,
}

impl TuneOptions {
    /// Every weight free, no lower bound, integer polish by steps 2 and 1, at most 100 passes
    /// each, no prior.
    pub fn all_free(width: usize) -> TuneOptions {
        TuneOptions {
            free: vec![true; width],
            lower: vec![i32::MIN / 2; width],
            steps: vec![2, 1],
            max_passes: 100,
            prior: 0.0,
        }
    }
}

/// What [`tune`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// The tuned weights.
    pub weights: Vec<i32>,
    /// Loss of the starting weights.
    pub loss_before: f64,
    /// Loss of the tuned weights.
    pub loss_after: f64,
    /// Passes of the integer polish over all weights (all step sizes).
    pub passes: usize,
}

/// Tunes the free weights at a fixed `k`: Levenberg-Marquardt steps on real-valued weights
/// (the model is linear in them, so each step solves a small linear system), rounded, then
/// polished by [`coordinate_descent`] on the integers.
pub fn tune(data: &Dataset, start: &[i32], k: f64, opts: &TuneOptions) -> TuneResult {
    let real = levenberg_marquardt(data, start, k, opts);
    let rounded: Vec<i32> = real
        .iter()
        .zip(&opts.lower)
        .map(|(&w, &lo)| (w.round() as i32).max(lo))
        .collect();
    let mut r = coordinate_descent(data, &rounded, start, k, opts);
    r.loss_before = data.loss(start, k);
    r
}

/// The unit of [`TuneOptions::prior`]: a change of 100 (a pawn) costs `prior`.
const PRIOR_SCALE: f64 = 100.0;

/// Most Levenberg-Marquardt iterations.
const LM_ITERATIONS: usize = 200;

/// Real-valued weights minimising the loss from `start`, free weights only, kept at or above
/// their lower bounds (a step that crosses one is cut back to it).
fn levenberg_marquardt(data: &Dataset, start: &[i32], k: f64, opts: &TuneOptions) -> Vec<f64> {
    let width = data.width;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    // Only free weights whose feature occurs are solved for; `slot[j]` is weight j's place
    // among them.
    let mut occurs = vec![false; width];
    for &(j, _) in &data.entries {
        occurs[j as usize] = true;
    }
    let free: Vec<usize> = (0..width).filter(|&j| opts.free[j] && occurs[j]).collect();
    let m = free.len();
    let mut slot = vec![usize::MAX; width];
    for (x, &j) in free.iter().enumerate() {
        slot[j] = x;
    }
    let w0: Vec<f64> = start.iter().map(|&x| x as f64).collect();
    let mut w = w0.clone();
    let n = data.len().max(1) as f64;
    // The prior in the summed form: n · prior / PRIOR_SCALE² per squared unit of change.
    let pull = n * opts.prior / (PRIOR_SCALE * PRIOR_SCALE);
    let loss_of = |w: &[f64]| -> f64 {
        let sum: f64 = (0..data.len())
            .map(|i| (data.results[i] - sigmoid(data.eval_of(i, w), k)).powi(2))
            .sum();
        let prior: f64 = free.iter().map(|&j| pull * (w[j] - w0[j]).powi(2)).sum();
        (sum + prior) / n
    };
    let mut loss = loss_of(&w);
    let mut lambda = 1e-3;
    for _ in 0..LM_ITERATIONS {
        if m == 0 {
            break;
        }
        // Normal equations of the linearised residuals: A = JᵀJ, g = Jᵀr.
        let mut a = vec![0.0; m * m];
        let mut g = vec![0.0; m];
        // A row's free features as (slot, value), by increasing slot.
        let mut touched: Vec<(usize, i32)> = Vec::new();
        for i in 0..data.len() {
            let p = sigmoid(data.eval_of(i, &w), k);
            let d = p * (1.0 - p) * scale;
            let res = data.results[i] - p;
            touched.clear();
            touched.extend(
                data.row(i)
                    .iter()
                    .filter(|&&(j, _)| slot[j as usize] != usize::MAX)
                    .map(|&(j, f)| (slot[j as usize], f)),
            );
            for (n, &(x, f)) in touched.iter().enumerate() {
                let fx = f as f64 * d;
                g[x] += fx * res;
                for &(y, fy) in &touched[n..] {
                    a[x * m + y] += fx * fy as f64 * d;
                }
            }
        }
        for x in 0..m {
            for y in 0..x {
                a[x * m + y] = a[y * m + x];
            }
        }
        for (x, &j) in free.iter().enumerate() {
            a[x * m + x] += pull;
            g[x] -= pull * (w[j] - w0[j]);
        }
        let mut accepted = false;
        for _ in 0..30 {
            let mut damped = a.clone();
            for x in 0..m {
                damped[x * m + x] += lambda * a[x * m + x].max(1e-12);
            }
            let Some(step) = solve(&mut damped, &g, m) else {
                lambda *= 10.0;
                continue;
            };
            let mut trial = w.clone();
            for (x, &j) in free.iter().enumerate() {
                trial[j] = (trial[j] + step[x]).max(opts.lower[j] as f64);
            }
            let l = loss_of(&trial);
            if l < loss {
                let gain = loss - l;
                w = trial;
                loss = l;
                lambda = (lambda / 3.0).max(1e-9);
                accepted = gain > 1e-13;
                break;
            }
            lambda *= 4.0;
        }
        if !accepted {
            break;
        }
    }
    w
}

/// Solves `a x = b` for a symmetric `n`×`n` matrix by Gaussian elimination with partial
/// pivoting; `None` when it is singular.
fn solve(a: &mut [f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut b = b.to_vec();
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&x, &y| a[x * n + col].abs().total_cmp(&a[y * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        if pivot != col {
            for c in 0..n {
                a.swap(col * n + c, pivot * n + c);
            }
            b.swap(col, pivot);
        }
        for r in col + 1..n {
            let f = a[r * n + col] / a[col * n + col];
            if f == 0.0 {
                continue;
            }
            for c in col..n {
                a[r * n + c] -= f * a[col * n + c];
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| a[r * n + c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r * n + r];
    }
    Some(x)
}

/// Coordinate descent on integer weights at a fixed `k`: each free weight in turn moves by the
/// current step in whichever direction lowers the loss, as long as it does. Only the positions
/// where a weight's feature is non-zero are re-evaluated for it, so a try costs a column of the
/// data, not all of it. The prior pulls towards `center`.
pub fn coordinate_descent(
    data: &Dataset,
    start: &[i32],
    center: &[i32],
    k: f64,
    opts: &TuneOptions,
) -> TuneResult {
    let width = data.width;
    assert_eq!(start.len(), width, "one starting weight per feature");
    // Sparse columns: per feature, the (position, value) pairs where it is non-zero.
    let mut columns: Vec<Vec<(u32, i32)>> = vec![Vec::new(); width];
    for i in 0..data.len() {
        for &(j, f) in data.row(i) {
            columns[j as usize].push((i as u32, f));
        }
    }
    let mut w = start.to_vec();
    let mut evals = data.evals(&w);
    let loss_before = mean_error(&evals, &data.results, k);
    let n = data.len().max(1) as f64;
    // The change of the summed error when weight j moves by d.
    let pull = n * opts.prior / (PRIOR_SCALE * PRIOR_SCALE);
    let delta = |evals: &[f64], w: &[i32], j: usize, d: i32| -> f64 {
        let (old, new) = ((w[j] - center[j]) as f64, (w[j] + d - center[j]) as f64);
        pull * (new * new - old * old)
            + columns[j]
                .iter()
                .map(|&(i, f)| {
                    let (e, r) = (evals[i as usize], data.results[i as usize]);
                    (r - sigmoid(e + (d * f) as f64, k)).powi(2) - (r - sigmoid(e, k)).powi(2)
                })
                .sum::<f64>()
    };
    let mut passes = 0;
    for &step in &opts.steps {
        for _ in 0..opts.max_passes {
            passes += 1;
            let mut changed = false;
            for j in 0..width {
                if !opts.free[j] {
                    continue;
                }
                for d in [step, -step] {
                    let mut moved = false;
                    while w[j] + d >= opts.lower[j] && delta(&evals, &w, j, d) < -1e-12 * n {
                        w[j] += d;
                        for &(i, f) in &columns[j] {
                            evals[i as usize] += (d * f) as f64;
                        }
                        moved = true;
                    }
                    if moved {
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    // Recompute from scratch so that the reported loss carries no accumulated rounding.
    let loss_after = data.loss(&w, k);
    TuneResult {
        weights: w,
        loss_before,
        loss_after,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Positions with random small features whose results follow known weights and `K`.
    fn synthetic(truth: &[i32], k: f64, n: usize, noisy: bool, seed: u64) -> Dataset {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut data = Dataset::new(truth.len());
        for _ in 0..n {
            let f: Vec<i32> = (0..truth.len()).map(|_| rng.gen_range(-2..=2)).collect();
            let eval: f64 = f.iter().zip(truth).map(|(&f, &w)| (f * w) as f64).sum();
            let p = sigmoid(eval, k);
            let result = if noisy {
                // A game result: win, draw or loss with the predicted expectation.
                let draw = 0.3 * (1.0 - (2.0 * p - 1.0).abs());
                let u: f64 = rng.gen();
                if u < p - draw / 2.0 {
                    1.0
                } else if u < p + draw / 2.0 {
                    0.5
                } else {
                    0.0
                }
            } else {
                p
            };
            data.push(&f, result).unwrap();
        }
        data
    }

    #[test]
    fn k_is_recovered_from_exact_predictions() {
        let truth = [100, 300, 40];
        let data = synthetic(&truth, 1.3, 2000, false, 1);
        let k = fit_k(&data, &truth);
        assert!((k - 1.3).abs() < 0.01, "K {k}");
    }

    #[test]
    fn weights_are_recovered_from_exact_predictions() {
        let truth = [100, 320, 500, 25];
        let data = synthetic(&truth, 1.0, 3000, false, 2);
        let mut opts = TuneOptions::all_free(4);
        opts.free[0] = false; // the pawn anchors the scale
        let start = [100, 200, 650, 0];
        let r = tune(&data, &start, 1.0, &opts);
        assert!(r.loss_after < r.loss_before / 100.0, "{r:?}");
        for (got, want) in r.weights.iter().zip(truth) {
            assert!((got - want).abs() <= 1, "{r:?} vs {truth:?}");
        }
        // Deterministic: the same data and start give the same answer.
        assert_eq!(tune(&data, &start, 1.0, &opts), r);
    }

    #[test]
    fn weights_are_recovered_from_game_results() {
        let truth = [100, 300, 480, 30];
        let data = synthetic(&truth, 1.0, 40_000, true, 3);
        let start = [100, 250, 400, 0];
        let k = fit_k(&data, &start);
        let r = tune(&data, &start, k, &TuneOptions::all_free(4));
        assert!(r.loss_after < r.loss_before, "{r:?}");
        // What the results determine is K times the weights.
        for (got, want) in r.weights.iter().zip(truth).skip(1) {
            let ratio = *got as f64 * k / want as f64;
            assert!(
                (ratio - 1.0).abs() < 0.1,
                "{:?} (K {k}) vs {truth:?}",
                r.weights
            );
        }
    }

    #[test]
    fn lower_bounds_and_fixed_weights_hold() {
        let truth = [100, -50];
        let data = synthetic(&truth, 1.0, 1000, false, 4);
        let mut opts = TuneOptions::all_free(2);
        opts.lower[1] = 0;
        opts.free[0] = false;
        let r = tune(&data, &[90, 20], 1.0, &opts);
        assert_eq!(r.weights, vec![90, 0]);
    }

    #[test]
    fn bad_rows_are_refused() {
        let mut d = Dataset::new(2);
        assert!(d.push(&[1], 1.0).is_err());
        assert!(d.push(&[1, 2], 1.5).is_err());
        assert!(d.is_empty());
        d.push(&[1, 2], 0.5).unwrap();
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn tune_does_at_least_as_well_as_integer_descent_alone() {
        // Integer steps alone stall in the valley along correlated weights (here at 323, 504).
        let truth = [100, 320, 500, 25];
        let data = synthetic(&truth, 1.0, 3000, false, 2);
        let mut opts = TuneOptions::all_free(4);
        opts.free[0] = false;
        opts.steps = vec![16, 8, 4, 2, 1];
        let r = coordinate_descent(&data, &[100, 200, 650, 0], &[100, 200, 650, 0], 1.0, &opts);
        assert!(r.loss_after < r.loss_before);
        assert!(tune(&data, &[100, 200, 650, 0], 1.0, &opts).loss_after <= r.loss_after);
    }

    #[test]
    fn a_prior_keeps_weights_near_the_start() {
        let truth = [100, 320, 500, 25];
        let data = synthetic(&truth, 1.0, 3000, false, 2);
        let start = [100, 200, 650, 0];
        let mut opts = TuneOptions::all_free(4);
        opts.free[0] = false;
        let free = tune(&data, &start, 1.0, &opts);
        opts.prior = 0.01;
        let pulled = tune(&data, &start, 1.0, &opts);
        for (j, &s) in start.iter().enumerate().skip(1) {
            let (d_free, d_pulled) = (free.weights[j] - s, pulled.weights[j] - s);
            assert!(d_pulled.abs() < d_free.abs(), "{pulled:?} vs {free:?}");
            assert_eq!(d_pulled.signum(), d_free.signum(), "{pulled:?} vs {free:?}");
        }
        assert!(pulled.loss_after > free.loss_after);
    }
}
