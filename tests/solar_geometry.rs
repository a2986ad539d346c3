//! The rule book's geometry check values, computed from coordinates.

use orrery::games::solar::{Geometry, Tile};

fn t(name: &str) -> u8 {
    Tile::from_name(name)
        .unwrap_or_else(|| panic!("no tile {name}"))
        .0
}

fn names(tiles: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = tiles
        .iter()
        .map(|&x| Geometry::get().name(x).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn seventy_two_tiles_named_as_in_the_rule_book() {
    let g = Geometry::get();
    assert_eq!(g.len(), 72);
    let expected =
        "a3 a4 b3 b4 b5 c4 c5 d2 d3 d4 e1 e2 e3 e4 e5 e6 f1 f2 f3 f4 f5 f6 g4 g5 g6 h2 h3 \
        i1 i2 i3 i4 i5 i6 j1 j2 j3 j4 j5 j6 k1 k2 k3 k4 k5 k6 l5 l6 m1 m2 m3 n1 n2 n3 n4 n5 n6 \
        o1 o2 o3 o4 o5 o6 p1 p5 p6 q1 q2 r1 r2 r6 s1 s6";
    let got: Vec<&str> = (0..72u8).map(|i| g.name(i)).collect();
    assert_eq!(
        got.join(" "),
        expected.split_whitespace().collect::<Vec<_>>().join(" ")
    );
}

#[test]
fn j1_neighbours() {
    let g = Geometry::get();
    assert_eq!(names(g.edge_neighbours(t("j1"))), ["e3", "f5", "j2", "j6"]);
    assert_eq!(
        names(g.vertex_neighbours(t("j1"))),
        ["e4", "f4", "j3", "j4", "j5"]
    );
}

#[test]
fn edge_neighbour_counts() {
    let g = Geometry::get();
    let four = (0..72u8)
        .filter(|&x| g.edge_neighbours(x).len() == 4)
        .count();
    let three = (0..72u8)
        .filter(|&x| g.edge_neighbours(x).len() == 3)
        .count();
    assert_eq!((four, three), (48, 24));
}

#[test]
fn orbit_of_j1_around_f() {
    let g = Geometry::get();
    let f = 5; // planet letter index of `f`
    let orbit = g.orbit_around(t("j1"), f).expect("j1 borders f");
    let mut got: Vec<&str> = orbit.iter().map(|&x| g.name(x)).collect();
    let expected = [
        "j1", "j2", "k6", "k1", "g5", "g6", "c4", "c5", "b3", "b4", "e2", "e3",
    ];
    if got[1] != "j2" {
        got[1..].reverse();
    }
    assert_eq!(got, expected);
    // The orbiter ray in that direction is the whole circle minus the start.
    let ray = g
        .orbit_rays(t("j1"))
        .iter()
        .find(|r| r.tiles()[0] == t("j2") && r.tiles().len() > 1 && r.tiles()[1] == t("k6"))
        .expect("a ray j1 -> j2 -> k6");
    assert_eq!(ray.tiles().len(), 11);
}

#[test]
fn missile_line_east_of_j1() {
    let g = Geometry::get();
    let rays: Vec<Vec<&str>> = g
        .missile_rays(t("j1"))
        .iter()
        .map(|r| r.tiles().iter().map(|&x| g.name(x)).collect())
        .collect();
    assert!(rays.contains(&vec!["f4", "k1", "g4"]), "{rays:?}");
    // Two lines through S vertices plus three single steps through H; nothing through T.
    assert_eq!(rays.len(), 5);
    assert_eq!(rays.iter().filter(|r| r.len() == 1).count(), 3, "{rays:?}");
}

#[test]
fn every_ray_is_reversible() {
    let g = Geometry::get();
    for a in 0..72u8 {
        for r in g.orbit_rays(a).iter().chain(g.missile_rays(a)) {
            for &b in r.tiles() {
                let back = g.orbit_rays(b).iter().chain(g.missile_rays(b));
                let ok = back.into_iter().any(|rb| rb.tiles().contains(&a));
                assert!(ok, "{} reaches {} but not back", g.name(a), g.name(b));
            }
        }
    }
}

#[test]
fn start_tiles_share_no_orbit_or_missile_line() {
    let g = Geometry::get();
    let starts = ["n3", "i4", "e5", "f6", "k1", "o2"].map(t);
    for &a in &starts {
        for &b in &starts {
            if a == b {
                continue;
            }
            for r in g.orbit_rays(a).iter().chain(g.missile_rays(a)) {
                assert!(!r.tiles().contains(&b), "{} sees {}", g.name(a), g.name(b));
            }
        }
    }
}

/// Centroids of the 72 kite polygons of `rules/solar-board.svg`, by the label drawn in each
/// (x right, y down, pixels).
const SVG_CENTROIDS: [(&str, f64, f64); 72] = [
    ("a3", 319.4, 105.2),
    ("a4", 260.0, 139.5),
    ("b3", 509.4, 105.2),
    ("b4", 450.0, 139.5),
    ("b5", 390.6, 105.2),
    ("c4", 640.0, 139.5),
    ("c5", 580.6, 105.2),
    ("d2", 224.4, 201.2),
    ("d3", 224.4, 269.8),
    ("d4", 165.0, 304.0),
    ("e1", 355.0, 166.9),
    ("e2", 414.4, 201.2),
    ("e3", 414.4, 269.8),
    ("e4", 355.0, 304.0),
    ("e5", 295.6, 269.8),
    ("e6", 295.6, 201.2),
    ("f1", 545.0, 166.9),
    ("f2", 604.4, 201.2),
    ("f3", 604.4, 269.8),
    ("f4", 545.0, 304.0),
    ("f5", 485.6, 269.8),
    ("f6", 485.6, 201.2),
    ("g4", 735.0, 304.0),
    ("g5", 675.6, 269.8),
    ("g6", 675.6, 201.2),
    ("h2", 129.4, 365.7),
    ("h3", 129.4, 434.3),
    ("i1", 260.0, 331.4),
    ("i2", 319.4, 365.7),
    ("i3", 319.4, 434.3),
    ("i4", 260.0, 468.6),
    ("i5", 200.6, 434.3),
    ("i6", 200.6, 365.7),
    ("j1", 450.0, 331.4),
    ("j2", 509.4, 365.7),
    ("j3", 509.4, 434.3),
    ("j4", 450.0, 468.6),
    ("j5", 390.6, 434.3),
    ("j6", 390.6, 365.7),
    ("k1", 640.0, 331.4),
    ("k2", 699.4, 365.7),
    ("k3", 699.4, 434.3),
    ("k4", 640.0, 468.6),
    ("k5", 580.6, 434.3),
    ("k6", 580.6, 365.7),
    ("l5", 770.6, 434.3),
    ("l6", 770.6, 365.7),
    ("m1", 165.0, 496.0),
    ("m2", 224.4, 530.2),
    ("m3", 224.4, 598.8),
    ("n1", 355.0, 496.0),
    ("n2", 414.4, 530.2),
    ("n3", 414.4, 598.8),
    ("n4", 355.0, 633.1),
    ("n5", 295.6, 598.8),
    ("n6", 295.6, 530.2),
    ("o1", 545.0, 496.0),
    ("o2", 604.4, 530.2),
    ("o3", 604.4, 598.8),
    ("o4", 545.0, 633.1),
    ("o5", 485.6, 598.8),
    ("o6", 485.6, 530.2),
    ("p1", 735.0, 496.0),
    ("p5", 675.6, 598.8),
    ("p6", 675.6, 530.2),
    ("q1", 260.0, 660.5),
    ("q2", 319.4, 694.8),
    ("r1", 450.0, 660.5),
    ("r2", 509.4, 694.8),
    ("r6", 390.6, 694.8),
    ("s1", 640.0, 660.5),
    ("s6", 580.6, 694.8),
];

#[test]
fn every_tile_sits_where_the_svg_draws_it() {
    // The SVG's planet spacing is 190 px (one lattice x unit = 47.5 px), its circumradius
    // 109.7 px (one lattice y unit = 27.425 px), and planet j's centre is at (450, 400.1).
    let g = Geometry::get();
    for (name, x, y) in SVG_CENTROIDS {
        let c = g.corners(t(name));
        let (sx, sy) = c
            .iter()
            .fold((0.0, 0.0), |a, p| (a.0 + p.0 as f64, a.1 + p.1 as f64));
        let (px, py) = (450.0 + sx / 4.0 * 47.5, 400.1 - sy / 4.0 * 27.425);
        assert!(
            (px - x).abs() < 1.0 && (py - y).abs() < 1.0,
            "{name}: ({px:.1},{py:.1}) vs ({x},{y})"
        );
    }
}
