//! The wordings of toml's and serde's messages that `toml_error` reads, pinned: a
//! dependency upgrade that changes one fails here instead of silently losing a key.

use super::*;

const BASE: &str = "[workload]\nkind = \"uniform\"\n";

/// toml's message for `text`, and ours.
fn both(text: &str) -> (String, String) {
    let e = toml::from_str::<Scenario>(text).expect_err(text);
    (e.message().trim_end().to_string(), message(text, &e))
}

/// Every wording of toml and serde that this module reads, with the key and the line it
/// must find from it. If an upgrade of toml or serde changes one, this test fails (and
/// the finder must be taught the new wording).
#[test]
fn the_wordings_this_module_reads_are_the_parsers() {
    let cases: &[(&str, &str, &str)] = &[
        // (scenario text, toml's exact message start, our message start)
        ("name = \"x\"\n", "missing field `workload`", "`workload` (line 1, column 1): missing field `workload`"),
        // the document lacks it, not the table after the root keys or on line 1
        ("name = \"x\"\n[cycles]\nmax = 9\n", "missing field `workload`", "`workload` (line 1, column 1): missing field `workload`"),
        ("[cycles]\nmax = 9\n", "missing field `workload`", "`workload` (line 1, column 1): missing field `workload`"),
        // an error in a later entry of a nested array of tables: that entry, not the first
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n[[network.faults]]\nkind = \"credit_jitter\"\nmax_cycles = 40\n[[network.faults]]\nkind = \"credit_delay\"\ncycles = 300\nscope = 0\n[workload]\nkind = \"uniform\"\n",
            "invalid type: integer `0`, expected string or map",
            "`network.faults[1].scope` (line 9, column 1): invalid type: integer `0`, expected a string: `all` or `nics`",
        ),
        (
            "[cycles]\nmax = 2000\n[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n[[network.faults]]\nkind = \"credit_jitter\"\nmax_cycles = 40\n[[network.faults]]\nkind = \"credit_delay\"\ncycles = 300\nstart = -1\n[workload]\nkind = \"uniform\"\n",
            "invalid value: integer `-1`, expected u64",
            "`network.faults[1].start` (line 11, column 1): invalid value: integer `-1`, expected an integer in the field's range: must be below cycles.max = 2000",
        ),
        // a date-time where a string goes: serde calls it a map; the message says what it is
        (
            "name = 1979-05-27\n[workload]\nkind = \"uniform\"\n",
            "invalid type: map, expected a string",
            "`name` (line 1, column 8): invalid type: date-time 1979-05-27, expected a string",
        ),
        (
            "name = 1979-05-27 07:32:00\n[workload]\nkind = \"uniform\"\n",
            "invalid type: map, expected a string",
            "`name` (line 1, column 8): invalid type: date-time 1979-05-27 07:32:00, expected a string",
        ),
        // a date inside a string is no date-time
        (
            "seed = \"a= 1979-05-27 b\"\n[workload]\nkind = \"uniform\"\n",
            "invalid type: string \"a= 1979-05-27 b\", expected u64",
            "`seed` (line 1, column 8): invalid type: string \"a= 1979-05-27 b\", expected an integer",
        ),
        (
            "cycles = 1979-05-27\n[workload]\nkind = \"uniform\"\n",
            "unknown field `$__toml_private_datetime`",
            "`cycles` (line 1, column 10): invalid type: date-time 1979-05-27, expected a table",
        ),
        (
            "[network]\ntopology = { kind = \"fat_tree\", radix = 8, leaves = 1979-05-27 }\n[workload]\nkind = \"uniform\"\n",
            "invalid type: map, expected u32",
            "`network.topology.leaves` (line 2, column 44): invalid type: date-time 1979-05-27, expected an integer",
        ),
        // a field of an inline topology table: named, with its range, pointed at
        (
            "[network]\ntopology = { kind = \"torus\", k = 4.5, n = 2 }\n[workload]\nkind = \"uniform\"\n",
            "invalid type: floating point `4.5`, expected u32",
            "`network.topology.k` (line 2, column 30): invalid type: floating point `4.5`, expected an integer in the field's range: must be in 2..=32768",
        ),
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = -4 }\n[workload]\nkind = \"uniform\"\n",
            "invalid value: integer `-4`, expected u32",
            "`network.topology.nodes` (line 2, column 38): invalid value: integer `-4`, expected an integer in the field's range: must be in 2..=64",
        ),
        // a key of a tagged inline table under a header, named like a key of the table
        (
            "[workload]\nkind = \"uniform\"\nload = 0.5\npattern = { kind = \"transpose\", load = 1 }\n",
            "unknown field `load`: kind `transpose` takes no other key",
            "`workload.pattern.load` (line 4, column 33): unknown field `load`",
        ),
        // an unknown field of an inline table: the field named and pointed at
        (
            "[network]\ntopology = { kind = \"fat_tree\", radix = 8, leafs = 4 }\n[workload]\nkind = \"uniform\"\n",
            "unknown field `leafs`, expected `radix` or `leaves`",
            "`network.topology.leafs` (line 2, column 44): unknown field `leafs`",
        ),
        (
            "[cycles]\nmaxx = 1\n[workload]\nkind = \"uniform\"\n",
            "unknown field `maxx`, expected one of `max`",
            "`cycles.maxx` (line 2, column 1): unknown field `maxx`",
        ),
        (
            "[workload]\nkind = \"uniform\"\nburst = 3\n",
            "unknown field `burst`, expected one of",
            "`workload.burst` (line 3, column 1): unknown field `burst`",
        ),
        (
            "[network]\nbuffer_flits = -5\n[workload]\nkind = \"uniform\"\n",
            "invalid value: integer `-5`, expected u32",
            "`network.buffer_flits` (line 2, column 16): invalid value: integer `-5`, expected an integer in the field's range: must be in 64..=65535 (at least one packet",
        ),
        (
            "[cycles]\nmax = \"lots\"\n[workload]\nkind = \"uniform\"\n",
            "invalid type: string \"lots\", expected u64",
            "`cycles.max` (line 2, column 7): invalid type: string \"lots\", expected an integer in the field's range: must be in 1..=10000000000",
        ),
        (
            "[workload]\nkind = \"uniform\"\nmsg_bytes = 1.5\n",
            "invalid type: floating point `1.5`, expected u32",
            "`workload.msg_bytes` (line 3, column 1): invalid type: floating point `1.5`, expected an integer in the field's range: allowed 1 <= msg_bytes <= 67108864",
        ),
        (
            "[workload]\nkind = \"uniform\"\nmsg_bytes = true\n",
            "invalid type: boolean `true`, expected u32",
            "`workload.msg_bytes` (line 3, column 1)",
        ),
        (
            "[workload]\nkind = \"uniform\"\nmsg_bytes = [1]\n",
            "invalid type: sequence, expected u32",
            "`workload.msg_bytes` (line 3, column 1)",
        ),
        (
            "[workload]\nkind = \"uniform\"\nmsg_bytes = { a = 1 }\n",
            "invalid type: map, expected u32",
            "`workload.msg_bytes` (line 3, column 1)",
        ),
        (
            "[workload]\nkind = \"uniform\"\nload = \"x\"\n",
            "invalid type: string \"x\", expected f64",
            "`workload.load` (line 3, column 1): invalid type: string \"x\", expected a number",
        ),
        (
            "[workload]\nkind = \"ring\"\n",
            "unknown variant `ring`, expected one of `uniform`, `hotspot`, `gpcnet`, `motif`, `trace`, `jobs`",
            "`workload.kind` (line 2, column 8): unknown kind `ring`; the allowed kinds are `uniform`, `hotspot`, `gpcnet`",
        ),
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"timely\"\n",
            "unknown variant `timely`, expected one of `none`, `pft`, `ibcc`",
            "`cc[0].kind` (line 5, column 1): unknown kind `timely`; the allowed kinds are `none`, `pft`, `ibcc`",
        ),
        // a wrong type keeps its range while another value of the file is wrong too
        (
            "[cycles]\nmax = \"x\"\n[workload]\nkind = \"uniform\"\n[[pft]]\nname = \"p\"\ndet_mode = {}\n",
            "invalid type: string \"x\", expected u64",
            "`cycles.max` (line 2, column 7): invalid type: string \"x\", expected an integer in the field's range: must be in 1..=10000000000",
        ),
        // a named value of the wrong type, as the TOML reader words it
        (
            "engine = 1.5\n[workload]\nkind = \"uniform\"\n",
            "wanted string or table",
            "`engine` (line 1, column 10): invalid type: expected a string: one of `model`, `rtl`, `verilator`",
        ),
        // a kind written with an escape, or as a literal string: found by its value
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"ti\\\"me\"\n",
            "unknown variant `ti\"me`, expected one of `none`, `pft`, `ibcc`",
            "`cc[0].kind` (line 5, column 1): unknown kind `ti\"me`; the allowed kinds are",
        ),
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = 'tim'\n",
            "unknown variant `tim`, expected one of `none`, `pft`, `ibcc`",
            "`cc[0].kind` (line 5, column 1): unknown kind `tim`",
        ),
        (
            "[network]\ntopology = \"fat_tree\"\n[workload]\nkind = \"uniform\"\n",
            "invalid type: string \"fat_tree\", expected internally tagged enum TopologyConfig",
            "`network.topology` (line 2, column 12): invalid type: string \"fat_tree\", expected a table with `kind` = one of `single_switch`, `fat_tree`, `three_stage`, `torus`, `mesh`, `kary_ntree`",
        ),
        (
            "[workload]\nload = 0.5\n",
            "missing field `kind`",
            "`workload.kind` (line 1, column 1): missing field `kind` (one of `uniform`, `hotspot`, `gpcnet`, `motif`, `trace`, `jobs`)",
        ),
        (
            "[network]\ntopology = { kind = \"fat_tree\", radix = 8 }\n[workload]\nkind = \"uniform\"\n",
            "missing field `leaves`",
            "`network.topology.leaves` (line 2, column 12): missing field `leaves`",
        ),
        (
            "[workload]\nkind = \"uniform\"\n[[network.faults]]\nkind = \"eject\"\nrate = 0.5\nnics = [1, -1]\n",
            "invalid value: integer `-1`, expected u32",
            "`network.faults[0].nics[1]` (line 6, column 12): invalid value: integer `-1`, expected an integer in the field's range: NICs are 0..120",
        ),
        (
            // an array element outside a tagged table: serde's span is the element
            "[timeseries]\nnics = [0, -1]\n[workload]\nkind = \"uniform\"\n",
            "invalid value: integer `-1`, expected u32",
            "`timeseries.nics[1]` (line 2, column 12): invalid value: integer `-1`, expected an integer in the field's range: must be a NIC in 0..120",
        ),
        (
            // probed with the largest value first: 0 would be "listed twice"
            "[[pft]]\nname = \"p\"\nnics = [0, -1]\n[workload]\nkind = \"uniform\"\n",
            "invalid value: integer `-1`, expected u32",
            "`pft[0].nics[1]` (line 3, column 12): invalid value: integer `-1`, expected an integer in the field's range: must be a NIC in 0..120",
        ),
        (
            // a multi-line array in a tagged table, with a comment and a later bad
            // element: the element is found by its value, its line by scanning
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"c\"\nkind = \"ibcc\"\ncct = [\n  0, # a, b\n  -2,\n  \"x\",\n]\n",
            "invalid value: integer `-2`, expected u64",
            "`cc[0].cct[1]` (line 8, column 3): invalid value: integer `-2`, expected an integer in the field's range: must be in 0..=65535",
        ),
        (
            "[workload]\nkind = \"gpcnet\"\ncanary_tests = [\"latency\", \"ping\"]\n",
            "unknown variant `ping`, expected one of",
            "`workload.canary_tests[1]` (line 3, column 28): unknown value `ping`; the allowed values are `latency`",
        ),
        (
            // an array of tables where a number belongs: not blamed on an array below
            "[[cycles.max]]\n[timeseries]\nnics = [0, 1]\n[workload]\nkind = \"uniform\"\n",
            "invalid type: sequence, expected u64",
            "`cycles.max[0]` (line 1, column 1)",
        ),
        (
            // a wrong type inside a tagged table, written as a sub-table: serde reports
            // `[[cc]]`; the entry is found by leaving each out
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"c\"\nkind = \"mvcm\"\n[cc.packet_bytes]\n",
            "invalid type: map, expected u64",
            "`cc[0].packet_bytes` (line 6, column 1): invalid type: map, expected an integer in the field's range: ",
        ),
        (
            // an array where a tagged table belongs (serde would read the variant from
            // one, its tag first: `net::config::tables`)
            "[workload]\nkind = \"uniform\"\npattern = []\n",
            "invalid type: sequence, expected a table",
            "`workload.pattern` (line 3, column 1): invalid type: sequence, expected a table",
        ),
        (
            // the missing tag of a table inside a tagged table
            "[workload]\nkind = \"uniform\"\ninjection = { rate = 1 }\n",
            "missing field `type`",
            "`workload.injection.type` (line 3, column 1): missing field `type`",
        ),
        (
            // a sub-table of an array of tables is the last element's
            "[[pft]]\nname = \"p\"\n[pft.k]\n[workload]\nkind = \"uniform\"\n",
            "key `k`: expected an integer",
            "`pft[0].k` (line 3, column 1)",
        ),
        (
            // a section as an array
            "cycles = [-1]\n[workload]\nkind = \"uniform\"\n",
            "invalid type: sequence, expected a table",
            "`cycles` (line 1, column 10): invalid type: sequence, expected a table",
        ),
        (
            "seed = 99999999999999999999\n[workload]\nkind = \"uniform\"\n",
            "number too large to fit in target type",
            "`seed` (line 1, column 8): number too large to fit in target type (TOML integers are in",
        ),
        (
            "[[pft]]\nname = \"a\"\n[[pft]]\nname = \"b\"\ndet_mode = \"xx\"\n[workload]\nkind = \"uniform\"\n",
            "key `det_mode`: unknown value \"xx\"; the allowed values are \"ft\" or \"at\"",
            "`pft[1].det_mode` (line 5, column 12)",
        ),
        // an element of an array of tables inside a tagged table: serde reports the
        // table; the element is the first whose prefix of the array gives the error
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n[workload]\nkind = \"jobs\"\n[[workload.jobs]]\nmotif = \"alltoall\"\nnics = 4\n[[workload.jobs]]\nmotif = \"incast\"\nnics = 4\niterations = -1\n",
            "invalid value: integer `-1`, expected u32",
            "`workload.jobs[1].iterations` (line 11, column 1): invalid value: integer `-1`, expected an integer in the field's range: allowed 1 <= iterations <= 100000",
        ),
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n[workload]\nkind = \"jobs\"\n[[workload.jobs]]\nnics = 4\n",
            "missing field `motif`",
            "`workload.jobs[0].motif` (line 5, column 1): missing field `motif`",
        ),
        // a key whose rule validation states at its table (`workload.pattern`), and an
        // array element whose rule is the array's: not the storage type's range
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n[workload]\nkind = \"uniform\"\npattern = { kind = \"hot_spot\", node = 1, percent = -3 }\n",
            "invalid value: integer `-3`, expected u32",
            "`workload.pattern.percent` (line 5, column 1): invalid value: integer `-3`, expected an integer in the field's range: must be in 0..=100",
        ),
        (
            "[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n[workload]\nkind = \"motif\"\nmotif = \"fft3d\"\ngrid = [-2, -4]\n",
            "invalid value: integer `-2`, expected u32",
            "`workload.grid[0]` (line 6, column 9): invalid value: integer `-2`, expected an integer in the field's range: allowed 2 positive integers whose product is the NIC count, 8",
        ),
        // an error in a later `[[cc]]` entry: serde reports the array's first header
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"none\"\n[[cc]]\nname = \"b\"\nkind = \"mvcm\"\nin_threshold_percent = -5\n",
            "invalid value: integer `-5`, expected u64",
            "`cc[1].in_threshold_percent` (line 9, column 1): invalid value: integer `-5`, expected an integer in the field's range: must be in 1..=100",
        ),
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"none\"\n[[cc]]\nname = \"b\"\nkind = \"alo\"\nbogus = 1\n",
            "unknown field `bogus`, expected",
            "`cc[1].bogus` (line 9, column 1): unknown field `bogus`",
        ),
        (
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"none\"\n[[cc]]\nname = \"b\"\nkind = \"mvcmx\"\n",
            "unknown variant `mvcmx`, expected one of",
            "`cc[1].kind` (line 8, column 1): unknown kind `mvcmx`; the allowed kinds are `none`, `pft`",
        ),
        (
            // a tag that is no string
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"none\"\n[[cc]]\nname = \"b\"\nkind = 5\n",
            "invalid type: integer `5`, expected variant identifier",
            "`cc[1].kind` (line 8, column 1): invalid type: integer `5`, expected a kind name: one of `none`, `pft`",
        ),
        (
            // a named value of the wrong type: the names, not serde's storage
            "[workload]\nkind = \"uniform\"\n[[cc]]\nname = \"a\"\nkind = \"ibcc\"\nvictim_mask = 1\n",
            "invalid type: integer `1`, expected string or map",
            "`cc[0].victim_mask` (line 6, column 1): invalid type: integer `1`, expected a string: one of `nic_ports`, `none`, `all`",
        ),
    ];
    for (text, toml_says, we_say) in cases {
        let (raw, ours) = both(text);
        assert!(
            raw.starts_with(toml_says),
            "the parser's wording changed for\n{text}\nexpected it to start with {toml_says:?}\ngot {raw:?}"
        );
        assert!(
            ours.starts_with(we_say),
            "for\n{text}\nexpected our message to start with {we_say:?}\ngot {ours:?}"
        );
    }
}

/// The values listed for the tables inside `[workload]` are serde's own, and their enum's
/// name never reaches a message.
#[test]
fn inner_tagged_values_match_serde() {
    for (name, tag, kinds) in INNER_TAGGED {
        let key = if tag == "type" {
            "injection"
        } else {
            "pattern"
        };
        let (raw, _) = both(&format!("{BASE}{key} = {{ {tag} = \"zz\" }}\n"));
        let want = format!("unknown variant `zz`, expected {}", one_of(kinds));
        assert_eq!(raw, want, "values of {name}");
        let (raw, ours) = both(&format!("{BASE}{key} = \"x\"\n"));
        assert!(raw.contains(name), "{raw}");
        assert!(!ours.contains(name), "{ours}");
        assert!(
            ours.contains(&format!("expected a table with `{tag}` = ")),
            "{ours}"
        );
    }
}

/// The kinds listed for a tagged table are serde's own.
#[test]
fn tagged_kinds_match_serde() {
    for (name, key, kinds) in TAGGED {
        let text = match key {
            "network.topology" => {
                "[network]\ntopology = { kind = \"zz\" }\n[workload]\nkind = \"uniform\"\n"
                    .to_string()
            }
            "workload" => "[workload]\nkind = \"zz\"\n".to_string(),
            "network.faults[]" => format!("{BASE}[[network.faults]]\nkind = \"zz\"\n"),
            "cc[]" => format!("{BASE}[[cc]]\nname = \"a\"\nkind = \"zz\"\n"),
            other => panic!("no probe for {other}"),
        };
        let (raw, _) = both(&text);
        let want = format!("unknown variant `zz`, expected {}", one_of(kinds));
        assert_eq!(raw, want, "kinds of {name} ({key})");
    }
}

#[test]
fn quotations_are_short_and_escaped() {
    let long = "y".repeat(5000);
    let (_, ours) = both(&format!("seed = \"{long}\"\n{BASE}"));
    assert!(ours.len() < 600, "{} bytes: {ours}", ours.len());
    assert!(ours.contains("(5000 bytes in all)"), "{ours}");
    let (_, ours) = both(&format!("name = \"a\u{1b}[31mb\"\n{BASE}"));
    assert!(!ours.contains('\u{1b}'), "{ours:?}");
    assert!(ours.contains("\\u{1b}"), "{ours:?}");
    // a long line is shown around the error, with the caret under it
    let text = format!("description = \"{}\", seed = 1\n{BASE}", "d".repeat(400));
    let (_, ours) = both(&text);
    let lines: Vec<&str> = ours.lines().collect();
    assert!(lines.iter().all(|l| l.chars().count() < 140), "{ours}");
    let (code, caret) = (lines[lines.len() - 2], lines[lines.len() - 1]);
    let col = caret.chars().position(|c| c == '^').expect(&ours);
    assert_eq!(code.chars().nth(col), Some(','), "{ours}");
}

#[test]
fn array_elements_are_found_across_lines_strings_and_comments() {
    let text = "a = [ 1, \"x,]#\", [2, 3], { b = 4 }, # c, d\n 'y' ]\nz = 1\n";
    let items: Vec<&str> = array_elements(text, 0)
        .unwrap()
        .into_iter()
        .map(|(s, e)| &text[s..e])
        .collect();
    assert_eq!(items, ["1", "\"x,]#\"", "[2, 3]", "{ b = 4 }", "'y'"]);
    assert_eq!(array_elements("a = [1, 2", 0), None, "unterminated");
    assert_eq!(array_elements("a = 1", 0), None, "no array");
    assert_eq!(array_elements("a = []", 0), Some(vec![]));
    assert_eq!(element_span("a = [1, 22]", 0, 1), Some((8, 10)));
    assert_eq!(element_span("a = [1, 22]", 0, 2), None);
}

#[test]
fn key_paths_with_indices_are_found() {
    let mut t: toml::Table =
        toml::from_str("[[pft]]\nm = 1\n[[pft]]\nm = 2\n[network]\ntopology = { radix = 3 }\n")
            .unwrap();
    assert_eq!(
        value_at(&mut t, "pft[1].m").map(|v| v.clone()),
        Some(toml::Value::Integer(2))
    );
    assert_eq!(
        value_at(&mut t, "network.topology.radix").map(|v| v.clone()),
        Some(toml::Value::Integer(3))
    );
    assert!(value_at(&mut t, "pft[2].m").is_none());
    assert_eq!(
        unindexed("network.faults[12].kind"),
        "network.faults[].kind"
    );
}

/// The entry of an inline table is found at the table's own level, outside strings of
/// either quote (an apostrophe in a basic string, an escaped quote) and nested tables.
#[test]
fn inline_entries_are_found_outside_strings_and_nested_tables() {
    fn at<'a>(t: &'a str, k: &str) -> Option<&'a str> {
        inline_entry(t, k).map(|i| &t[i..])
    }
    assert_eq!(at("{ kind = \"torus\", k = 4.5 }", "k"), Some("k = 4.5 }"));
    assert_eq!(
        at("{ p = \"it's\", w = -1 }", "w"),
        Some("w = -1 }"),
        "an apostrophe in a basic string"
    );
    assert_eq!(
        at("{ p = \"a\\\", w = 1\", w = -1 }", "w"),
        Some("w = -1 }"),
        "an escaped quote"
    );
    assert_eq!(
        at(
            "{ ph = [ { pattern = { kind = \"u\" } } ], pattern = \"bad\" }",
            "pattern"
        ),
        Some("pattern = \"bad\" }"),
        "a nested table's key of the same name"
    );
    assert_eq!(at("{ kind = \"x\" }", "k"), None, "a key's prefix");
}

/// A key that only the table's tag has, written in an entry of an array of tables under a
/// tagged table: serde reports it at the table's header, and the tag itself (`workload.kind`)
/// was blamed.
#[test]
fn an_unknown_key_in_a_nested_entry_is_not_blamed_on_the_tag() {
    let jobs = "[workload]\nkind = \"jobs\"\n[[workload.jobs]]\nmotif = \"alltoall\"\nnics = 4\n\
                [[workload.jobs]]\nkind = \"motif\"\nmotif = \"alltoall\"\nnics = 4\n";
    let m = both(jobs).1;
    assert!(
        m.starts_with("`workload.jobs[1].kind` (line 7, column 1)"),
        "{m}"
    );
    let phases = "[workload]\nkind = \"uniform\"\nload = 0.1\nmsg_bytes = 64\n\
                  [[workload.phases]]\ncycles = 10\ninterval_cycles = 5\nkind = \"x\"\n";
    let m = both(phases).1;
    assert!(
        m.starts_with("`workload.phases[0].kind` (line 8, column 1)"),
        "{m}"
    );
    // two entries write it: the first is named
    let both_jobs = jobs.replace(
        "[[workload.jobs]]\nmotif",
        "[[workload.jobs]]\nkind = \"x\"\nmotif",
    );
    let m = both(&both_jobs).1;
    assert!(
        m.starts_with("`workload.jobs[0].kind` (line 4, column 1)"),
        "{m}"
    );
    // a table inside the tagged table: its key, not the outer table's tag
    let inner = "[workload]\nkind = \"uniform\"\ninjection = { type = \"on_off\", mean_burst_cycles = 10, kind = 3 }\n";
    let m = both(inner).1;
    assert!(
        m.starts_with("`workload.injection.kind` (line 3, column 56)"),
        "{m}"
    );
    let sub = "[workload]\nkind = \"uniform\"\n[workload.injection]\ntype = \"on_off\"\nkind = 3\n";
    let m = both(sub).1;
    assert!(
        m.starts_with("`workload.injection.kind` (line 5, column 1)"),
        "{m}"
    );
    let pattern =
        "[workload]\nkind = \"uniform\"\npattern = { kind = \"shift\", by = 1, type = 3 }\n";
    let m = both(pattern).1;
    assert!(
        m.starts_with("`workload.pattern.type` (line 3, column 37)"),
        "{m}"
    );
    // a key the table does not take, which an entry takes, is the table's
    let own_valid = "[workload]\nkind = \"jobs\"\nmotif = \"alltoall\"\n[[workload.jobs]]\nmotif = \"alltoall\"\nnics = 4\n";
    let m = both(own_valid).1;
    assert!(m.starts_with("`workload.motif` (line 3, column 1)"), "{m}");
    // the table's own unknown key is still its own
    let own =
        "[workload]\nkind = \"jobs\"\nfoo = 1\n[[workload.jobs]]\nmotif = \"alltoall\"\nnics = 4\n";
    let m = both(own).1;
    assert!(m.starts_with("`workload.foo` (line 3, column 1)"), "{m}");
}
