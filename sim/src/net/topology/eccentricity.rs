//! A connected graph's center and diameter from a few breadth-first searches, exactly.
//!
//! A search from router v gives its eccentricity e(v) and, for every router w at distance
//! d from it, bounds on w's: max(d, e(v) - d) <= e(w) <= e(v) + d (the triangle
//! inequality); and no path is longer than 2 e(v). Searches stop once the bounds decide
//! the answer: on a chain a handful, where one from every router took minutes at 65,536
//! routers. Where many routers have the least eccentricity or the greatest (a torus: all
//! of them) the bounds decide late, and it may search from up to every router, as before:
//! never more.

/// Bounds on every router's eccentricity, refined one search at a time.
struct Bounds<F> {
    lo: Vec<u32>,
    hi: Vec<u32>,
    exact: Vec<bool>,
    bfs: F,
}

impl<F: Fn(u32) -> Vec<u32>> Bounds<F> {
    fn new(n: usize, bfs: F) -> Self {
        Bounds {
            lo: vec![0; n],
            hi: vec![u32::MAX; n],
            exact: vec![false; n],
            bfs,
        }
    }

    /// Search from `v`: its eccentricity, and everyone's bounds tightened.
    fn search(&mut self, v: u32) -> u32 {
        let d = (self.bfs)(v);
        let e = d.iter().copied().max().unwrap_or(0);
        for (w, &dw) in d.iter().enumerate() {
            self.lo[w] = self.lo[w].max(dw).max(e.saturating_sub(dw));
            self.hi[w] = self.hi[w].min(e.saturating_add(dw));
        }
        self.exact[v as usize] = true;
        (self.lo[v as usize], self.hi[v as usize]) = (e, e);
        e
    }
}

/// The router of least eccentricity, the lowest number on ties, of the connected graph of
/// `n` routers whose hop counts from a router `bfs` gives (0 for no router).
#[cfg(test)]
pub(super) fn center(n: usize, bfs: impl Fn(u32) -> Vec<u32>) -> u32 {
    center_by(n, bfs, |r| r)
}

/// The router of least eccentricity of the connected graph of `n` routers whose hop counts
/// from a router `bfs` gives, the least `key` on ties (0 for no router; `key` tells every
/// router apart).
pub(super) fn center_by<K: Ord>(
    n: usize,
    bfs: impl Fn(u32) -> Vec<u32>,
    key: impl Fn(u32) -> K,
) -> u32 {
    if n == 0 {
        return 0;
    }
    let mut b = Bounds::new(n, bfs);
    let key = |w: usize| key(w as u32);
    loop {
        // the least upper bound, and the router of least key searched whose eccentricity
        // it is
        let m = b.hi.iter().copied().min().unwrap_or(0);
        let best = (0..n)
            .filter(|&r| b.exact[r] && b.hi[r] == m)
            .min_by_key(|&r| key(r));
        // it is the answer when every other router is known to rank after it: a higher
        // eccentricity, or the same one and a greater key
        let open = (0..n).filter(|&w| match best {
            Some(v) => w != v && (b.lo[w] < m || (b.lo[w] == m && key(w) < key(v))),
            None => true,
        });
        // else search from the open router of least lower bound (least key on ties)
        match open.min_by_key(|&w| (b.lo[w], key(w))) {
            None => return best.unwrap_or(0) as u32,
            Some(w) => b.search(w as u32),
        };
    }
}

/// The longest shortest path of the connected graph of `n` routers whose hop counts from
/// a router `bfs` gives (0 for no router).
pub(super) fn diameter(n: usize, bfs: impl Fn(u32) -> Vec<u32>) -> u32 {
    let mut b = Bounds::new(n, bfs);
    // the longest eccentricity searched, and the shortest: no path is longer than twice
    // any router's eccentricity (through that router)
    let (mut most, mut least) = (0, u32::MAX);
    for k in 0..=n {
        if most >= least.saturating_mul(2) {
            return most;
        }
        // routers that could still be further from someone than the longest path seen
        let open = (0..n).filter(|&w| !b.exact[w] && b.hi[w] > most);
        // in turn the one of highest upper bound (the far ends) and of least lower bound
        // (the middle, whose search bounds everyone's from above); lowest number on ties
        let next = match k % 2 {
            0 => open.max_by_key(|&w| (b.hi[w], std::cmp::Reverse(w))),
            _ => open.min_by_key(|&w| (b.lo[w], w)),
        };
        match next {
            None => return most,
            Some(w) => {
                let e = b.search(w as u32);
                (most, least) = (most.max(e), least.min(e));
            }
        }
    }
    most
}

#[cfg(test)]
mod tests {
    use super::{center, center_by, diameter};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::collections::VecDeque;

    fn bfs(adj: &[Vec<u32>], from: u32) -> Vec<u32> {
        let mut d = vec![u32::MAX; adj.len()];
        d[from as usize] = 0;
        let mut q = VecDeque::from([from]);
        while let Some(r) = q.pop_front() {
            for &m in &adj[r as usize] {
                if d[m as usize] == u32::MAX {
                    d[m as usize] = d[r as usize] + 1;
                    q.push_back(m);
                }
            }
        }
        d
    }

    /// Against a search from every router, on random connected graphs, rings and chains.
    #[test]
    fn the_bounds_give_what_every_search_gives() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for case in 0..300 {
            let n = rng.gen_range(1..60usize);
            let mut adj = vec![Vec::new(); n];
            let link = |a: usize, b: usize, adj: &mut Vec<Vec<u32>>| {
                if a != b && !adj[a].contains(&(b as u32)) {
                    adj[a].push(b as u32);
                    adj[b].push(a as u32);
                }
            };
            // a random spanning tree (or a chain, or a ring), then extra links
            for r in 1..n {
                let to = match case % 3 {
                    0 => rng.gen_range(0..r),
                    _ => r - 1,
                };
                link(r, to, &mut adj);
            }
            if case % 3 == 2 && n > 2 {
                link(n - 1, 0, &mut adj);
            }
            if case % 3 == 0 {
                for _ in 0..rng.gen_range(0..n) {
                    let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
                    link(a, b, &mut adj);
                }
            }
            let ecc: Vec<u32> = (0..n as u32)
                .map(|r| bfs(&adj, r).into_iter().max().unwrap())
                .collect();
            let want_center = (0..n as u32).min_by_key(|&r| (ecc[r as usize], r)).unwrap();
            let want_diameter = ecc.iter().copied().max().unwrap();
            assert_eq!(center(n, |r| bfs(&adj, r)), want_center, "case {case}");
            // another tie rule: a weight per router, most first, then the number
            let w: Vec<u32> = (0..n).map(|_| rng.gen_range(0..3)).collect();
            let key = |r: u32| (std::cmp::Reverse(w[r as usize]), r);
            let want_by = (0..n as u32)
                .min_by_key(|&r| (ecc[r as usize], key(r)))
                .unwrap();
            assert_eq!(center_by(n, |r| bfs(&adj, r), key), want_by, "case {case}");
            assert_eq!(diameter(n, |r| bfs(&adj, r)), want_diameter, "case {case}");
        }
    }

    /// A chain of 65,536 routers takes a handful of searches, not one per router.
    #[test]
    fn a_long_chain_takes_few_searches() {
        let n = 1 << 16;
        let adj: Vec<Vec<u32>> = (0..n as u32)
            .map(|r| {
                [r.checked_sub(1), (r + 1 < n as u32).then_some(r + 1)]
                    .into_iter()
                    .flatten()
                    .collect()
            })
            .collect();
        let searches = std::cell::Cell::new(0);
        let counted = |r| {
            searches.set(searches.get() + 1);
            bfs(&adj, r)
        };
        assert_eq!(center(n, counted), (n / 2 - 1) as u32);
        assert!(searches.get() <= 4, "{} searches", searches.get());
        searches.set(0);
        assert_eq!(diameter(n, counted), n as u32 - 1);
        assert!(searches.get() <= 4, "{} searches", searches.get());
    }

    /// A star of stars (a two-level tree, 4,161 routers): its diameter, 4, is twice the
    /// root's eccentricity, which settles it at once.
    #[test]
    fn a_tree_s_diameter_takes_few_searches() {
        let (k, n) = (64u32, 1 + 64 + 64 * 64);
        let mut adj = vec![Vec::new(); n as usize];
        for c in 1..=k {
            adj[0].push(c);
            adj[c as usize].push(0);
            for l in 0..k {
                let leaf = 1 + k + (c - 1) * k + l;
                adj[c as usize].push(leaf);
                adj[leaf as usize].push(c);
            }
        }
        let searches = std::cell::Cell::new(0);
        let counted = |r| {
            searches.set(searches.get() + 1);
            bfs(&adj, r)
        };
        assert_eq!(diameter(n as usize, counted), 4);
        assert!(searches.get() <= 4, "{} searches", searches.get());
        searches.set(0);
        assert_eq!(center(n as usize, counted), 0);
        assert!(searches.get() <= 4, "{} searches", searches.get());
    }
}
