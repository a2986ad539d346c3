//! The ISMCTS tree in flat arenas with a memory bound: nodes (one edge list head per seat), edges
//! (one per seat and action, with visit, availability and reward counts) and a hash table from
//! (parent, joint action) to child. Clearing keeps every allocation, so searches reuse storage;
//! when the budget is used up the tree stops growing and the search goes on inside it.

use std::mem::size_of;

/// No node / no edge.
pub(crate) const NONE: u32 = u32::MAX;

/// One seat's action at a node, with its statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge<A> {
    /// The action.
    pub action: A,
    /// Next edge of the same (node, seat) list.
    pub next: u32,
    /// Iterations that chose this edge.
    pub visits: u32,
    /// Iterations in which its action was available at this node.
    pub avail: u32,
    /// Sum of the seat's rewards over those visits.
    pub reward: f32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    parent: u32,
    child: u32,
    stamp: u32,
}

/// Sizes of a tree in use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Nodes in use.
    pub nodes: usize,
    /// Edges in use.
    pub edges: usize,
    /// Most nodes the budget allows.
    pub max_nodes: usize,
    /// Most edges the budget allows.
    pub max_edges: usize,
    /// Bytes of storage held (capacity, not just use).
    pub bytes: usize,
}

/// A search tree over the info sets of one observer, bounded to a byte budget.
pub struct Tree<A> {
    seats: usize,
    heads: Vec<u32>,
    edges: Vec<Edge<A>>,
    table: Vec<Slot>,
    stamp: u32,
    used_slots: usize,
    nodes: usize,
    max_nodes: usize,
    max_edges: usize,
    max_slots: usize,
}

/// Smallest hash table (slots).
const MIN_SLOTS: usize = 1024;

/// Makes room for `more` elements, growing by doubling but never past `limit` elements of
/// capacity (so the budget bounds the capacity, not just the length).
fn reserve_bounded<T>(v: &mut Vec<T>, more: usize, limit: usize) {
    if v.len() + more <= v.capacity() {
        return;
    }
    let want = (v.capacity() * 2).max(256).min(limit.max(v.len() + more));
    v.reserve_exact(want - v.len());
}

impl<A: Copy + Eq> Tree<A> {
    /// An empty tree that will hold at most about `bytes` of storage.
    pub fn new(bytes: usize) -> Self {
        let mut t = Tree {
            seats: 1,
            heads: Vec::new(),
            edges: Vec::new(),
            table: Vec::new(),
            stamp: 1,
            used_slots: 0,
            nodes: 0,
            max_nodes: 0,
            max_edges: 0,
            max_slots: 0,
        };
        t.set_budget(bytes);
        t
    }

    /// Changes the byte budget: a quarter for the child table (at most half full), the rest
    /// for node heads and edges (about eight edges per node). Frees storage beyond the new budget.
    pub fn set_budget(&mut self, bytes: usize) {
        let slot = size_of::<Slot>();
        let mut slots = MIN_SLOTS;
        while slots * 2 * slot <= bytes / 4 {
            slots *= 2;
        }
        self.max_slots = slots;
        self.max_nodes = slots / 2;
        let rest = bytes.saturating_sub(slots * slot);
        let per_node = 4 * 8 + 8 * size_of::<Edge<A>>();
        self.max_nodes = self.max_nodes.min((rest / per_node).max(2));
        self.max_edges = (rest.saturating_sub(self.max_nodes * 4 * 8) / size_of::<Edge<A>>())
            .max(self.max_nodes);
        self.clear(1);
        self.heads.shrink_to(self.max_nodes * 8);
        self.edges.shrink_to(self.max_edges);
        if self.table.len() > self.max_slots {
            self.table = Vec::new();
        }
    }

    /// Empties the tree for a new search with `seats` seats, keeping its storage, and makes the
    /// root (node 0).
    pub fn clear(&mut self, seats: usize) {
        self.seats = seats.max(1);
        self.heads.clear();
        self.edges.clear();
        self.nodes = 0;
        self.used_slots = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.table.iter_mut().for_each(|s| s.stamp = 0);
            self.stamp = 1;
        }
        if self.table.is_empty() {
            self.table = vec![Slot::default(); MIN_SLOTS.min(self.max_slots)];
        }
        self.push_node();
    }

    fn push_node(&mut self) -> u32 {
        let n = self.nodes as u32;
        let limit = self.max_nodes * self.seats;
        reserve_bounded(&mut self.heads, self.seats, limit);
        self.heads.extend(std::iter::repeat_n(NONE, self.seats));
        self.nodes += 1;
        n
    }

    /// Sizes in use and allowed.
    pub fn stats(&self) -> TreeStats {
        TreeStats {
            nodes: self.nodes,
            edges: self.edges.len(),
            max_nodes: self.max_nodes,
            max_edges: self.max_edges,
            bytes: self.heads.capacity() * 4
                + self.edges.capacity() * size_of::<Edge<A>>()
                + self.table.capacity() * size_of::<Slot>(),
        }
    }

    /// Whether another node fits.
    pub fn can_grow(&self) -> bool {
        self.nodes < self.max_nodes && self.edges.len() < self.max_edges
    }

    pub(crate) fn edge(&self, e: u32) -> &Edge<A> {
        &self.edges[e as usize]
    }

    pub(crate) fn edge_mut(&mut self, e: u32) -> &mut Edge<A> {
        &mut self.edges[e as usize]
    }

    /// The first edge of `seat` at `node`.
    pub(crate) fn head(&self, node: u32, seat: usize) -> u32 {
        self.heads[node as usize * self.seats + seat]
    }

    /// Finds the edge of `seat` for `action` at `node`, searching from `from` to the end of the
    /// list and then from its head; creates it after `prev` (or at the head) when it is missing
    /// and the budget allows. `NONE` when it is missing and cannot be made.
    pub(crate) fn find_or_add(
        &mut self,
        node: u32,
        seat: usize,
        action: A,
        from: u32,
        prev: u32,
    ) -> u32 {
        let mut e = from;
        while e != NONE {
            if self.edges[e as usize].action == action {
                return e;
            }
            e = self.edges[e as usize].next;
        }
        let head = self.head(node, seat);
        e = head;
        while e != from && e != NONE {
            if self.edges[e as usize].action == action {
                return e;
            }
            e = self.edges[e as usize].next;
        }
        if self.edges.len() >= self.max_edges {
            return NONE;
        }
        let new = self.edges.len() as u32;
        reserve_bounded(&mut self.edges, 1, self.max_edges);
        let next = if prev == NONE {
            head
        } else {
            self.edges[prev as usize].next
        };
        self.edges.push(Edge {
            action,
            next,
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
        if prev == NONE {
            self.heads[node as usize * self.seats + seat] = new;
        } else {
            self.edges[prev as usize].next = new;
        }
        new
    }

    fn slot_of(&self, parent: u32, key: u64) -> usize {
        let h = (key ^ u64::from(parent).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        (h >> 20) as usize & (self.table.len() - 1)
    }

    /// The child of `parent` reached by the joint action with hash `key`.
    pub(crate) fn child(&self, parent: u32, key: u64) -> Option<u32> {
        let mask = self.table.len() - 1;
        let mut i = self.slot_of(parent, key);
        loop {
            let s = &self.table[i];
            if s.stamp != self.stamp {
                return None;
            }
            if s.parent == parent && s.key == key {
                return Some(s.child);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes a new child of `parent` for the joint action `key`; `None` when the budget is used
    /// up (the caller has checked that the child does not exist).
    pub(crate) fn add_child(&mut self, parent: u32, key: u64) -> Option<u32> {
        if !self.can_grow() {
            return None;
        }
        if (self.used_slots + 1) * 2 > self.table.len() {
            if self.table.len() >= self.max_slots {
                return None;
            }
            self.grow_table();
        }
        let child = self.push_node();
        let mask = self.table.len() - 1;
        let mut i = self.slot_of(parent, key);
        while self.table[i].stamp == self.stamp {
            i = (i + 1) & mask;
        }
        self.table[i] = Slot {
            key,
            parent,
            child,
            stamp: self.stamp,
        };
        self.used_slots += 1;
        Some(child)
    }

    fn grow_table(&mut self) {
        let old = std::mem::take(&mut self.table);
        self.table = vec![Slot::default(); old.len() * 2];
        let mask = self.table.len() - 1;
        for s in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let mut i = self.slot_of(s.parent, s.key);
            while self.table[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.table[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_keep_generation_order_and_children_are_found() {
        let mut t: Tree<u8> = Tree::new(4 << 20);
        t.clear(2);
        let mut prev = NONE;
        let mut ids = Vec::new();
        for a in [3u8, 1, 4] {
            let from = if prev == NONE {
                t.head(0, 1)
            } else {
                t.edge(prev).next
            };
            let e = t.find_or_add(0, 1, a, from, prev);
            ids.push(e);
            prev = e;
        }
        let mut order = Vec::new();
        let mut e = t.head(0, 1);
        while e != NONE {
            order.push(t.edge(e).action);
            e = t.edge(e).next;
        }
        assert_eq!(order, vec![3, 1, 4]);
        assert_eq!(t.find_or_add(0, 1, 1, NONE, NONE), ids[1]);
        assert_eq!(t.head(0, 0), NONE);
        let c = t.add_child(0, 77).unwrap();
        assert_eq!(t.child(0, 77), Some(c));
        assert_eq!(t.child(0, 78), None);
        assert_eq!(t.child(c, 77), None);
        for k in 0..5000u64 {
            t.add_child(c, k).unwrap();
        }
        assert!(t.stats().nodes > 5000);
        assert_eq!(t.child(0, 77), Some(c), "found again after the table grew");
    }

    #[test]
    fn the_budget_bounds_the_tree_and_clear_keeps_storage() {
        let mut t: Tree<u32> = Tree::new(64 * 1024);
        t.clear(3);
        let mut added = 0;
        for k in 0..1_000_000u64 {
            if t.add_child(0, k).is_none() {
                break;
            }
            added += 1;
        }
        let s = t.stats();
        assert!(added < 1_000_000 && added > 100, "{added}");
        assert!(s.nodes <= s.max_nodes);
        assert!(s.bytes <= 64 * 1024, "{s:?}");
        let cap = s.bytes;
        t.clear(3);
        assert_eq!(t.stats().nodes, 1);
        assert_eq!(t.stats().bytes, cap, "storage kept");
        assert_eq!(t.child(0, 5), None, "old children are gone");
    }
}
