//! The route (and hop) columns of a group of destinations, gathered router by router
//! before they are written into a topology's tables (rows of a router, a column per NIC):
//! a column written straight into the table touches a cache line per router.

/// Destinations whose columns `build` gathers before writing them into the tables: a
/// router's row of them is about a cache line when NICs are numbered router by router.
pub(super) const COLUMNS: usize = 64;

/// The route (and hop) columns of a group of destination NICs, `width` entries a router.
pub(super) struct Columns {
    /// The group's NICs, in column order.
    pub(super) group: Vec<u32>,
    pub(super) width: usize,
    pub(super) route: Vec<u8>,
    /// Empty when no hop table is built.
    pub(super) hops: Vec<u8>,
}

impl Columns {
    pub(super) fn new(routers: usize, width: usize, hops: bool) -> Self {
        Columns {
            group: Vec::with_capacity(width),
            width,
            route: vec![u8::MAX; routers * width],
            hops: if hops {
                vec![0; routers * width]
            } else {
                Vec::new()
            },
        }
    }

    /// The group's columns into `route` and `hops` (rows of `nodes`), router by router.
    pub(super) fn flush(&mut self, route: &mut [u8], hops: &mut [u8], nodes: usize) {
        // NICs numbered router by router make a group of consecutive numbers: each row's
        // columns are then one copy
        let n = self.group.len();
        let run = self
            .group
            .first()
            .filter(|&&d0| self.group.iter().zip(d0..).all(|(&d, e)| d == e))
            .map(|&d0| d0 as usize);
        let write = |from: &[u8], to: &mut [u8]| {
            for (r, row) in from.chunks_exact(self.width).enumerate() {
                let to = &mut to[r * nodes..(r + 1) * nodes];
                match run {
                    Some(d0) => to[d0..d0 + n].copy_from_slice(&row[..n]),
                    None => {
                        for (&d, &p) in self.group.iter().zip(row) {
                            to[d as usize] = p;
                        }
                    }
                }
            }
        };
        write(&self.route, route);
        if !hops.is_empty() {
            write(&self.hops, hops);
        }
        self.group.clear();
    }
}
