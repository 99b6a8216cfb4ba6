//! Refusals that help: a typo in a game name gets the nearest name, a missing bracket is named, and a
//! command that cannot do the job names the one that can. Each is one line with exit status 2.

mod common;
use common::*;

#[test]
fn typos_in_game_names_get_the_nearest_name() {
    for (args, needle) in [
        (
            vec!["outcome", "CM(6,2)", "1,2,3,4,5,6"],
            "unknown game 'CM(6,2)'; did you mean 'CN(6,2)'?",
        ),
        (
            vec!["table", "SCM(5,3)", "--max", "3"],
            "did you mean 'SCN(5,3)'?",
        ),
        (vec!["moves", "nmi", "3,4"], "did you mean 'nim'?"),
        (
            vec!["grundy", "mooore(2)", "1,2"],
            "did you mean 'moore(2)'?",
        ),
        (
            vec!["verify", "entropi(3)", "--max", "4", "--theorem", "x"],
            "did you mean 'ENTROPY(3)'?",
        ),
        (
            vec!["patterns", "CN(6,2", "--max", "2"],
            "unknown game 'CN(6,2': the closing bracket ')' is missing; did you mean 'CN(6,2)'?",
        ),
        (
            vec!["outcome", "CN6,2)", "1,2,3,4,5,6"],
            "a ')' has no opening '('",
        ),
        (
            vec!["outcome", "simplicial({1,2},{2,3)", "1,2,3"],
            "the closing bracket '}' is missing",
        ),
        (vec!["outcome", "chess", "1"], "known games:"),
    ] {
        fails(&args, needle);
    }
    // The suggestion is a game nimlab knows: it answers.
    ok(&["outcome", "CN(6,2)", "1,2,3,4,5,6"]);
}

#[test]
fn refusals_name_the_command_that_can_do_the_job() {
    let dir = TempDir::new("messages-jobs");
    let sub = dir.write(
        "sub.rhai",
        "fn options(p) { let out = []; for t in [1, 2] { if p[0] >= t { out.push([p[0] - t]); } } out }\n",
    );
    for cmd in ["discover", "prove"] {
        let mut args = vec![cmd, sub.as_str()];
        if cmd == "prove" {
            args.extend(["--theorem", "bouton"]);
        }
        fails(&args, "`nimlab patterns ");
        fails(&args, "--heaps N --max H --conjecture FILE");
    }
    fails(
        &["discover", "ET(4)"],
        "verify with --theorem ID checks a registry result",
    );
    for args in [
        vec!["table", "nim[3] + nim[4]", "--max", "3"],
        vec!["explain", "nim[3] + nim[4]", "1"],
        vec!["patterns", "nim[3] + nim[4]", "--max", "3"],
    ] {
        fails(
            &args,
            "is a sum of games, which `nimlab outcome`, `grundy` and `moves` answer",
        );
    }
    ok(&["moves", "nim[3] + nim[4]"]);
    // nim needs its number of heaps, or the automata prover for every number of heaps.
    fails(&["prove", "nim", "--theorem", "bouton"], "give --heaps N");
    fails(&["discover", "nim"], "give --heaps N");
    // The command it names does the job.
    ok(&["patterns", &sub, "--heaps", "1", "--max", "9"]);
}
