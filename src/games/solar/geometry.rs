//! The Solar Chess board computed from coordinates: planets on a hexagonal lattice, each split into
//! six kites, and every adjacency, orbit and missile line derived from shared vertices.
//!
//! Points live on an integer lattice: `x` counts half inradii of a planet and `y` quarter
//! circumradii, `y` pointing north. In these units a planet centre (H) has its corners (T) at
//! `(0,±4)`, `(±2,±2)` and its side midpoints (S) at `(±2,0)`, `(±1,±3)`; neighbouring planets are
//! `(±4,0)` and `(±2,±6)` apart. Everything else follows from which kites share which points.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Number of tiles (kites) on the board.
pub const TILES: usize = 72;

/// Longest possible ray: an orbit round a full planet ring has 11 tiles besides the start.
pub const MAX_RAY: usize = 12;

/// A point of the scaled lattice (see the module documentation).
pub type Point = (i32, i32);

/// A straight run of tiles from a start tile, nearest first (the start itself excluded).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ray {
    len: u8,
    tiles: [u8; MAX_RAY],
}

impl Ray {
    /// The tiles of the ray, nearest first, as tile indices.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.len as usize]
    }

    fn push(&mut self, t: u8) {
        self.tiles[self.len as usize] = t;
        self.len += 1;
    }
}

/// Corner (T) offsets for kites 1..6: the direction their T corner points (N, 30° above east, ...).
const T_OFFSETS: [Point; 6] = [(0, 4), (2, 2), (2, -2), (0, -4), (-2, -2), (-2, 2)];
/// Side-midpoint (S) offsets of a planet.
const S_OFFSETS: [Point; 6] = [(2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3), (1, -3)];
/// Neighbouring planet offsets.
const PLANET_STEPS: [Point; 6] = [(4, 0), (2, 6), (-2, 6), (-4, 0), (-2, -6), (2, -6)];

/// Squared true distance between two lattice points, up to a constant factor.
fn dist2(a: Point, b: Point) -> i32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    3 * dx * dx + dy * dy
}

fn add(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1)
}

/// The whole board with every table the move generator needs, built once.
#[derive(Debug)]
pub struct Geometry {
    names: Vec<String>,
    /// Vertices of each kite in cyclic order H, S, T, S.
    corners: Vec<[Point; 4]>,
    planet_centres: Vec<Point>,
    edge_neighbours: Vec<Vec<u8>>,
    vertex_neighbours: Vec<Vec<u8>>,
    orbit_rays: Vec<Vec<Ray>>,
    missile_rays: Vec<Vec<Ray>>,
    edge_mask: Vec<u128>,
    vertex_mask: Vec<u128>,
}

impl Geometry {
    /// The board, computed at first use.
    pub fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }

    #[allow(clippy::needless_range_loop)]
    fn build() -> Geometry {
        // Planets: every lattice planet at most two steps from the middle, named row by row.
        let mut planets: Vec<Point> = vec![(0, 0)];
        for _ in 0..2 {
            let mut next = planets.clone();
            for &p in &planets {
                for &s in &PLANET_STEPS {
                    let q = add(p, s);
                    if !next.contains(&q) {
                        next.push(q);
                    }
                }
            }
            planets = next;
        }
        planets.sort_by_key(|&(x, y)| (-y, x));

        // The board hexagon: centres of the planets two steps away in the six directions.
        let hexagon: Vec<Point> = PLANET_STEPS.iter().map(|&(x, y)| (2 * x, 2 * y)).collect();
        let inside = |c4: Point| {
            (0..6).all(|i| {
                let a = (4 * hexagon[i].0, 4 * hexagon[i].1);
                let b = (4 * hexagon[(i + 1) % 6].0, 4 * hexagon[(i + 1) % 6].1);
                let cross = (b.0 - a.0) as i64 * (c4.1 - a.1) as i64
                    - (b.1 - a.1) as i64 * (c4.0 - a.0) as i64;
                cross > 0
            })
        };

        let mut names = Vec::new();
        let mut corners = Vec::new();
        for (pi, &h) in planets.iter().enumerate() {
            for (k, &t_off) in T_OFFSETS.iter().enumerate() {
                let mut sides: Vec<Point> = S_OFFSETS
                    .iter()
                    .copied()
                    .filter(|&s| dist2(s, t_off) == 4)
                    .collect();
                sides.sort_by_key(|&(x, y)| (x, y));
                let kite = [h, add(h, sides[0]), add(h, t_off), add(h, sides[1])];
                let c4 = kite
                    .iter()
                    .fold((0, 0), |acc, &p| (acc.0 + p.0, acc.1 + p.1));
                if inside(c4) {
                    names.push(format!("{}{}", (b'a' + pi as u8) as char, k + 1));
                    corners.push(kite);
                }
            }
        }
        let n = corners.len();

        let mut at_point: HashMap<Point, Vec<u8>> = HashMap::new();
        for (t, kite) in corners.iter().enumerate() {
            for &p in kite {
                at_point.entry(p).or_default().push(t as u8);
            }
        }
        let shared =
            |a: usize, b: usize| corners[a].iter().filter(|p| corners[b].contains(p)).count();
        let mut edge_neighbours = vec![Vec::new(); n];
        let mut vertex_neighbours = vec![Vec::new(); n];
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                match shared(a, b) {
                    2 => edge_neighbours[a].push(b as u8),
                    1 => vertex_neighbours[a].push(b as u8),
                    _ => {}
                }
            }
        }

        // The tile other than `t` that contains both endpoints of an edge.
        let across_edge = |t: usize, e: (Point, Point)| -> Option<usize> {
            at_point[&e.0]
                .iter()
                .map(|&x| x as usize)
                .find(|&x| x != t && corners[x].contains(&e.1))
        };
        let edge = |t: usize, i: usize| (corners[t][i], corners[t][(i + 1) % 4]);
        let edge_index = |t: usize, e: (Point, Point)| {
            (0..4)
                .find(|&i| {
                    let f = edge(t, i);
                    (f.0 == e.0 && f.1 == e.1) || (f.0 == e.1 && f.1 == e.0)
                })
                .expect("edge belongs to the tile")
        };
        let mut orbit_rays = vec![Vec::new(); n];
        for start in 0..n {
            for i in 0..4 {
                let mut ray = Ray::default();
                let (mut cur, mut e) = (start, edge(start, i));
                while let Some(next) = across_edge(cur, e) {
                    if next == start {
                        break;
                    }
                    ray.push(next as u8);
                    e = edge(next, (edge_index(next, e) + 2) % 4);
                    cur = next;
                }
                if ray.len > 0 {
                    orbit_rays[start].push(ray);
                }
            }
        }

        // Tiles that share exactly the point `p` with tile `t`.
        let vertex_only_at = |t: usize, p: Point| -> Vec<usize> {
            at_point[&p]
                .iter()
                .map(|&x| x as usize)
                .filter(|&x| x != t && shared(t, x) == 1)
                .collect()
        };
        let mut missile_rays = vec![Vec::new(); n];
        for start in 0..n {
            for i in 0..4 {
                for first in vertex_only_at(start, corners[start][i]) {
                    let mut ray = Ray::default();
                    ray.push(first as u8);
                    let (mut cur, mut p) = (first, corners[start][i]);
                    loop {
                        let j = corners[cur].iter().position(|&q| q == p).expect("shared");
                        p = corners[cur][(j + 2) % 4];
                        let next = vertex_only_at(cur, p);
                        if next.len() != 1 {
                            break;
                        }
                        cur = next[0];
                        ray.push(cur as u8);
                    }
                    missile_rays[start].push(ray);
                }
            }
        }

        let mask = |v: &Vec<u8>| v.iter().fold(0u128, |m, &t| m | 1u128 << t);
        let edge_mask = edge_neighbours.iter().map(mask).collect();
        let vertex_mask = vertex_neighbours.iter().map(mask).collect();
        Geometry {
            names,
            corners,
            planet_centres: planets,
            edge_neighbours,
            vertex_neighbours,
            orbit_rays,
            missile_rays,
            edge_mask,
            vertex_mask,
        }
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: the board has tiles.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Name of a tile (`j1`).
    pub fn name(&self, t: u8) -> &str {
        &self.names[t as usize]
    }

    /// The tile with this name.
    pub fn index(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n == name).map(|i| i as u8)
    }

    /// The four lattice vertices of a tile in cyclic order H, S, T, S.
    pub fn corners(&self, t: u8) -> [Point; 4] {
        self.corners[t as usize]
    }

    /// Tiles sharing an edge with `t`.
    pub fn edge_neighbours(&self, t: u8) -> &[u8] {
        &self.edge_neighbours[t as usize]
    }

    /// Tiles sharing exactly one vertex with `t`.
    pub fn vertex_neighbours(&self, t: u8) -> &[u8] {
        &self.vertex_neighbours[t as usize]
    }

    /// Bit mask of [`edge_neighbours`](Geometry::edge_neighbours).
    pub fn edge_mask(&self, t: u8) -> u128 {
        self.edge_mask[t as usize]
    }

    /// Bit mask of [`vertex_neighbours`](Geometry::vertex_neighbours).
    pub fn vertex_mask(&self, t: u8) -> u128 {
        self.vertex_mask[t as usize]
    }

    /// Orbiter rays from `t`: through each edge, then through the opposite edge of every new tile,
    /// stopping at the board's rim or before coming back to `t`.
    pub fn orbit_rays(&self, t: u8) -> &[Ray] {
        &self.orbit_rays[t as usize]
    }

    /// Missile rays from `t`: through each vertex into the tile sharing only it, then through the
    /// opposite vertex while that leads to exactly one such tile.
    pub fn missile_rays(&self, t: u8) -> &[Ray] {
        &self.missile_rays[t as usize]
    }

    /// The closed or cut circle through `t` of the kites bordering `planet` (`t` first), if `t`
    /// borders that planet.
    pub fn orbit_around(&self, t: u8, planet: usize) -> Option<Vec<u8>> {
        let centre = self.planet_centres[planet];
        let on_rim = |x: u8| {
            self.corners[x as usize][0] != centre
                && self.corners[x as usize][1..]
                    .iter()
                    .any(|&p| dist2(p, centre) == 4 * 4 || dist2(p, centre) == 12)
        };
        self.orbit_rays(t)
            .iter()
            .find(|r| on_rim(t) && r.tiles().iter().all(|&x| on_rim(x)))
            .map(|r| {
                std::iter::once(t)
                    .chain(r.tiles().iter().copied())
                    .collect()
            })
    }
}
