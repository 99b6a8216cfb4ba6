//! `nimlab prove --automaton FILE` (Walnut's format, SCN's sections), `--save` and the store,
//! `--subset`. Tests that need z3 print SKIPPED when it is missing, unless NIMLAB_REQUIRE_Z3=1 (CI).

use super::*;

/// Bouton's P-set of Nim on three heaps as a Walnut automaton: one state, the columns of even parity.
const NIM3_WALNUT: &str =
    "msd_2 msd_2 msd_2\n\n0 1\n0 0 0 -> 0\n0 1 1 -> 0\n1 0 1 -> 0\n1 1 0 -> 0\n";

#[test]
fn walnut_automata_are_proved_or_refuted() {
    let dir = TempDir::new("prove-automaton");
    let nim = dir.write("nim.txt", NIM3_WALNUT);
    let (code, v) = prove_json(&["CN(3,1)", "--automaton", &nim]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["method"], "automata");
    assert_eq!(v["range"], "all");
    assert!(v["source"].as_str().unwrap().contains("nim.txt"), "{v}");
    // (1,1,1) accepted too: it moves to (1,1,0), also accepted.
    let wrong = dir.write(
        "wrong.txt",
        &NIM3_WALNUT.replace("1 1 0 -> 0\n", "1 1 0 -> 0\n1 1 1 -> 0\n"),
    );
    let (code, v) = prove_json(&["CN(3,1)", "--automaton", &wrong]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["verdict"], "refuted");
    let cx = &v["conditions"][0]["counterexample"];
    assert!(cx["position"].is_array() && cx["move_to"].is_array(), "{v}");
    // Plain text names the file and the method.
    let out = nimlab(&["prove", "CN(3,1)", "--automaton", &nim]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("nim.txt") && text.contains("by automata"),
        "{text}"
    );
    // Bad files and contradicting sources: one line, status 2.
    let bad = dir.write("bad.txt", "msd_2 msd_2 msd_2\n0 1\n0 0 -> 0\n");
    fails(&["prove", "CN(3,1)", "--automaton", &bad], "line 3");
    let lsd = dir.write("lsd.txt", "lsd_2 lsd_2 lsd_2\n0 1\n");
    fails(&["prove", "CN(3,1)", "--automaton", &lsd], "line 1");
    fails(&["prove", "CN(4,1)", "--automaton", &nim], "4 stacks");
    fails(
        &["prove", "CN(3,1)", "--automaton", &dir.file("none.txt")],
        "none.txt",
    );
    fails(
        &[
            "prove",
            "CN(3,1)",
            "--automaton",
            &nim,
            "--theorem",
            "bouton",
        ],
        "cannot be used with",
    );
    fails(
        &["prove", "CN(3,1)", "--automaton", &nim, "--families", &nim],
        "cannot be used with",
    );
}

#[test]
fn a_proved_automaton_is_saved_and_answers_huge_positions() {
    let dir = TempDir::new("prove-save-automaton");
    let db = dir.db();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/automata/nim-3.txt"
    );
    let (code, v) = prove_json(&["CN(3,1)", "--automaton", file, "--save", "--db", &db]);
    assert_eq!(code, 0, "{v}");
    let id = v["saved"].as_str().unwrap().to_string();
    assert!(id.starts_with("proved:"), "{v}");
    // Saving the same file again gives the same id.
    let (_, again) = prove_json(&["CN(3,1)", "--automaton", file, "--save", "--db", &db]);
    assert_eq!(again["saved"], v["saved"]);
    let list = common::ok(&["store", "list", "--json", "--db", &db]);
    let list: Value = parse("store list", &list);
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["id"] == id.as_str()
            && e["format"] == "automaton"
            && e["prover"] == "automata"));
    // Heaps near 2^64: xor decides; the method names the characterization.
    let (a, b) = (18446744073709551557u64, 13835058055282163729u64);
    let pos = format!("{a},{b},{}", a ^ b);
    let out = without_theory(&db, &["outcome", "CN(3,1)", &pos, "--json"]);
    let x = parse("outcome", &out);
    assert_eq!(
        (x["outcome"].as_str(), x["method"].as_str()),
        (Some("P"), Some(id.as_str()))
    );
    let pos = format!("{a},{b},12345");
    let out = without_theory(&db, &["explain", "CN(3,1)", &pos, "--json"]);
    let x = parse("explain", &out);
    assert_eq!(x["outcome"], "N");
    let q: Vec<u64> = x["explanation"]["winning_move"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(q[0] ^ q[1] ^ q[2], 0, "{x}");
    assert_eq!(
        [a, b, 12345].iter().zip(&q).filter(|(x, y)| x != y).count(),
        1,
        "{x}"
    );
    // The other convention is not answered by it.
    let out = without_theory(&db, &["outcome", "CN(3,1)", "1,2,3", "--misere", "--json"]);
    assert_ne!(parse("outcome", &out)["method"], id.as_str());
    // Export writes the file back; remove takes it out.
    let text = common::ok(&["store", "export", &id, "--db", &db]);
    assert_eq!(text, std::fs::read_to_string(file).unwrap());
    common::ok(&["store", "rm", &id, "--db", &db]);
    let out = without_theory(&db, &["outcome", "CN(3,1)", "1,2,3", "--json"]);
    assert_ne!(parse("outcome", &out)["method"], id.as_str());
    fails(&["store", "rm", &id, "--db", &db], "no characterization");
}

#[test]
fn save_is_refused_with_bits_and_theorem() {
    fails(
        &["prove", "CN(4,2)", "--theorem", "cn-4-2", "--save"],
        "--save",
    );
    fails(
        &[
            "prove",
            "CN(4,2)",
            "--families",
            "x.toml",
            "--bits",
            "8",
            "--save",
        ],
        "--save",
    );
}

#[test]
fn proved_families_are_saved_and_answer_outcome() {
    if !have_z3("proved_families_are_saved_and_answer_outcome") {
        return;
    }
    let dir = TempDir::new("prove-save-families");
    let db = dir.db();
    // Dufour & Heubach's CN(4,2) theorem, written here as a families file.
    let file = dir.write(
        "cn42.toml",
        "game = \"CN(4,2)\"\nreading = \"any\"\n[[family]]\nname = \"opposite equal\"\nrelations = [\"a = c\", \"b = d\"]\n",
    );
    let out = common::ok(&[
        "prove",
        "CN(4,2)",
        "--families",
        &file,
        "--save",
        "--db",
        &db,
    ]);
    assert!(
        out.contains("saved in the store as characterization #"),
        "{out}"
    );
    let big = "18446744073709551615,7,18446744073709551615,7";
    let x = parse(
        "outcome",
        &without_theory(&db, &["outcome", "CN(4,2)", big, "--json"]),
    );
    assert_eq!(x["outcome"], "P");
    assert!(x["method"].as_str().unwrap().starts_with("proved:"), "{x}");
    let big = "18446744073709551615,7,18446744073709551614,9";
    let x = parse(
        "moves",
        &without_theory(&db, &["moves", "CN(4,2)", big, "--json"]),
    );
    assert_eq!(x["outcome"], "N");
    let w = &x["winning_moves"][0];
    assert_eq!(w[0], w[2], "{x}");
    assert_eq!(w[1], w[3], "{x}");
}

/// `--subset` (and a partial result, which is proved that way): every member is a P-position, by
/// condition (C); a member that is an N-position is refuted with its winning move; a set inside the
/// P-set whose members' winning replies leave it is unknown (status 3), not refuted.
#[test]
fn subsets_are_proved_refuted_or_unknown() {
    if !have_z3("subsets_are_proved_refuted_or_unknown") {
        return;
    }
    let (code, v) = prove_json(&["CN(7,4)", "--theorem", "cn-lemma5-s1"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["claim"], "subset");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["conditions"][0]["condition"], "C");
    let out = nimlab(&["prove", "CN(9,5)", "--theorem", "cn-lemma5-s1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("proved for every stack size: every member is a P-position"),
        "{text}"
    );
    let dir = TempDir::new("prove-subset");
    // (a,a,a,a) in CN(4,2): P-positions (a = c, b = d), but from (1,1,1,1) -> (1,1,0,1) the
    // winning reply, to (0,1,0,1), leaves the set.
    let equal = dir.file("equal.toml");
    std::fs::write(
        &equal,
        "game = \"CN(4,2)\"\n[[family]]\nname = \"all equal\"\nrelations = [\"a = b\", \"b = c\", \"c = d\"]\n",
    )
    .unwrap();
    let (code, v) = prove_json(&["CN(4,2)", "--families", &equal, "--subset"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "unknown");
    assert!(v["conditions"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("(C) fails at ("));
    // (a,b,a,b) with b = a + 1, and one N-position: refuted with the winning move.
    let wrong = dir.file("wrong.toml");
    std::fs::write(
        &wrong,
        "game = \"CN(4,2)\"\n[[family]]\nname = \"opposite equal\"\nrelations = [\"a = c\", \"b = d\"]\n[[family]]\nname = \"an N-position\"\nrelations = [\"a = 2\", \"b = 0\", \"c = 0\", \"d = 0\"]\n",
    )
    .unwrap();
    for extra in [None, Some("--automata")] {
        let mut args = vec!["CN(4,2)", "--families", &wrong, "--subset"];
        args.extend(extra);
        let (code, v) = prove_json(&args);
        assert_eq!(code, 1, "{v}");
        let cx = &v["conditions"][0]["counterexample"];
        let x: Vec<u64> = serde_json::from_value(cx["position"].clone()).unwrap();
        let y: Vec<u64> = serde_json::from_value(cx["move_to"].clone()).unwrap();
        // The member (2,0,0,0) up to symmetry, moving to the P-position (0,0,0,0).
        assert_eq!(x.iter().sum::<u64>(), 2, "{v}");
        assert_eq!(y, vec![0, 0, 0, 0], "{v}");
    }
    fails(
        &[
            "prove",
            "CN(4,2)",
            "--families",
            &wrong,
            "--subset",
            "--save",
        ],
        "cannot be used with",
    );
}

/// Nim's automaton on `len` piles in Walnut's format: one state, the letters of even parity.
fn nim_walnut(len: usize) -> String {
    let mut t = vec!["msd_2"; len].join(" ");
    t.push_str("\n0 1\n");
    for l in 0..1u32 << len {
        if l.count_ones() % 2 == 0 {
            let d: Vec<String> = (0..len).map(|i| ((l >> i) & 1).to_string()).collect();
            t.push_str(&format!("{} -> 0\n", d.join(" ")));
        }
    }
    t
}

/// SCN(3,1) is Nim on every circle (k = 1 never sees the circle): its file of one automaton per
/// circle length is proved, saved, and answers huge circles from the store; a wrong one is refuted;
/// bad files are refused in one line.
#[test]
fn scn_automata_files_are_proved_or_refused() {
    let dir = TempDir::new("prove-scn-automaton");
    let db = dir.db();
    let mut text = String::from("# SCN(3,1): Nim on every circle\n# length 0\ntrue\n");
    for len in 1..=3 {
        text.push_str(&format!("# length {len}\n{}", nim_walnut(len)));
    }
    let good = dir.write("scn31.txt", &text);
    let (code, v) = prove_json(&["SCN(3,1)", "--automaton", &good, "--save", "--db", &db]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["method"], "automata");
    let id = v["saved"].as_str().expect("saved").to_string();
    let (a, b) = (18446744073709551557u64, 13835058055282163729u64);
    let pos = format!("{a},{b},{}", a ^ b);
    let out = without_theory(&db, &["outcome", "SCN(3,1)", &pos, "--json"]);
    let x = parse("outcome", &out);
    assert_eq!(
        (x["outcome"].as_str(), x["method"].as_str()),
        (Some("P"), Some(id.as_str()))
    );
    let out = without_theory(
        &db,
        &["outcome", "SCN(3,1)", &format!("{a},{b},5"), "--json"],
    );
    assert_eq!(parse("outcome", &out)["outcome"], "N");
    // A length-1 automaton that accepts the zero pile only when it is written with a digit: its
    // answer depends on leading zeros there, but a zero pile is not a circle, so the file describes
    // the same set of circles and is proved (it was once refused, citing (0)).
    let quirk = text.replacen(
        "# length 1\nmsd_2\n0 1\n0 -> 0\n",
        "# length 1\nmsd_2\n0 0\n0 -> 1\n1 1\n0 -> 1\n",
        1,
    );
    assert_ne!(quirk, text);
    let quirk = dir.write("quirk.txt", &quirk);
    let (code, v) = prove_json(&["SCN(3,1)", "--automaton", &quirk]);
    assert_eq!(code, 0, "{v}");
    // The empty circle left out of the set: (1) has no move into it (II), and (III) fails.
    let wrong = dir.write("wrong.txt", &text.replace("true", "false"));
    let (code, v) = prove_json(&["SCN(3,1)", "--automaton", &wrong]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["verdict"], "refuted");
    // Bad files: one line naming what is wrong, status 2.
    let missing = dir.write("missing.txt", &text.replace("# length 2\n", ""));
    fails(
        &["prove", "SCN(3,1)", "--automaton", &missing],
        "# length 2",
    );
    let digit = dir.write("digit.txt", &text.replacen("0 1 1 -> 0", "0 1 2 -> 0", 1));
    fails(&["prove", "SCN(3,1)", "--automaton", &digit], "line");
    fails(&["prove", "SCN(4,1)", "--automaton", &good], "# length 4");
    let one = dir.write("one.txt", &nim_walnut(3));
    fails(&["prove", "SCN(3,1)", "--automaton", &one], "line 1");
}
