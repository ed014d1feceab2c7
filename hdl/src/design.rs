//! The design registry's entry: what `pft-verilog`, `make synth-FAMILY`
//! (`synth/flow.sh`), `synth/tools/summarize.py` and the shared Verilator replay harness
//! (`tb/verilator/replay.cpp`) know of a design. The list itself is [`crate::DESIGNS`]; its
//! JSON form ([`json`]) is `hdl/generated/designs.json` (`make docs`; a test keeps it
//! current), which the scripts read.

/// A design's ports in a replay vector's order and its blocks.
#[derive(Debug)]
pub struct Io {
    /// The clock input (the replay harness drives it).
    pub clock: &'static str,
    /// The inputs (clock excluded), in the vector's order.
    pub inputs: &'static [&'static str],
    /// The outputs compared every cycle, in the vector's order after the inputs.
    pub outputs: &'static [&'static str],
    /// The top's direct sub-blocks: instance name and role (summarize.py's table; the flow
    /// keeps each as its own module for the cells per block).
    pub blocks: &'static [(&'static str, &'static str)],
    /// More modules (below the top, without the top's prefix) kept as their own modules in
    /// the per-block cell report.
    pub keep: &'static [&'static str],
    /// Verilator `UNUSEDSIGNAL` waivers of a sized design's lint (`instance$port`).
    pub waive: &'static [&'static str],
}

/// One design: one top module, or one per size.
#[derive(Debug)]
pub struct Design {
    /// `pft-verilog --design NAME`: the top module, or with sizes the tops `NAME<N>`.
    pub name: &'static str,
    /// The folder under `hdl/src/` and `make synth-FAMILY`.
    pub family: &'static str,
    /// The sizes built (flow counts; `--flows N`), empty for one top.
    pub sizes: &'static [usize],
    /// The reference model its RTL is tested against.
    pub model: &'static str,
    /// The older flags that select it (`pft-verilog` aliases; `N` is the size).
    pub alias: &'static str,
    /// What it is (usage text, the flow's reports).
    pub about: &'static str,
    /// Its Verilog for a size (`None` without sizes), top module [`Design::top`].
    pub verilog: fn(Option<usize>) -> String,
    /// Ports and blocks.
    pub io: &'static Io,
    /// A script `make synth-FAMILY` runs after the design's own steps (empty: none).
    pub extra: &'static str,
}

impl Design {
    /// The top module of `size` (`name`, or `name<N>`).
    pub fn top(&self, size: Option<usize>) -> String {
        match size {
            Some(n) => format!("{}{n}", self.name),
            None => self.name.to_string(),
        }
    }

    /// Every top this design exports, with its size.
    pub fn tops(&self) -> Vec<(String, Option<usize>)> {
        if self.sizes.is_empty() {
            vec![(self.top(None), None)]
        } else {
            self.sizes
                .iter()
                .map(|&n| (self.top(Some(n)), Some(n)))
                .collect()
        }
    }

    /// The Verilog of `size`. Panics if the design is not built at that size.
    pub fn export(&self, size: Option<usize>) -> String {
        match size {
            None => assert!(self.sizes.is_empty(), "{}: needs a size", self.name),
            Some(n) => assert!(self.sizes.contains(&n), "{}: no size {n}", self.name),
        }
        (self.verilog)(size)
    }
}

/// The design named `top` (its size not given yet), or the design and size whose top module
/// is `top`.
pub fn find<'a>(list: &'a [Design], top: &str) -> Option<(&'a Design, Option<usize>)> {
    if let Some(d) = list.iter().find(|d| d.name == top) {
        return Some((d, None));
    }
    list.iter()
        .flat_map(|d| d.tops().into_iter().map(move |(t, n)| (d, t, n)))
        .find(|(_, t, _)| t == top)
        .map(|(d, _, n)| (d, n))
}

fn quote(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn strings(v: &[&str]) -> String {
    let q: Vec<String> = v.iter().map(|s| quote(s)).collect();
    format!("[{}]", q.join(", "))
}

/// The list as JSON (one object per design, in the list's order), for the scripts.
pub fn json(list: &[Design]) -> String {
    let mut o = String::from("[\n");
    for (i, d) in list.iter().enumerate() {
        let blocks: Vec<String> =
            d.io.blocks
                .iter()
                .map(|(b, r)| format!("[{}, {}]", quote(b), quote(r)))
                .collect();
        let sizes: Vec<String> = d.sizes.iter().map(|n| n.to_string()).collect();
        let tops: Vec<String> = d.tops().into_iter().map(|(t, _)| t).collect();
        let tops: Vec<&str> = tops.iter().map(String::as_str).collect();
        o.push_str("  {\n");
        o.push_str(&format!("    \"name\": {},\n", quote(d.name)));
        o.push_str(&format!("    \"family\": {},\n", quote(d.family)));
        o.push_str(&format!("    \"sizes\": [{}],\n", sizes.join(", ")));
        o.push_str(&format!("    \"tops\": {},\n", strings(&tops)));
        o.push_str(&format!("    \"model\": {},\n", quote(d.model)));
        o.push_str(&format!("    \"alias\": {},\n", quote(d.alias)));
        o.push_str(&format!("    \"about\": {},\n", quote(d.about)));
        o.push_str(&format!("    \"inputs\": {},\n", strings(d.io.inputs)));
        o.push_str(&format!("    \"outputs\": {},\n", strings(d.io.outputs)));
        o.push_str(&format!("    \"blocks\": [{}],\n", blocks.join(", ")));
        o.push_str(&format!("    \"keep\": {},\n", strings(d.io.keep)));
        o.push_str(&format!("    \"waive\": {},\n", strings(d.io.waive)));
        o.push_str(&format!("    \"extra\": {}\n", quote(d.extra)));
        o.push_str(if i + 1 < list.len() {
            "  },\n"
        } else {
            "  }\n"
        });
    }
    o.push_str("]\n");
    o
}
