//! `nimlab play` with its input piped: moves, commands, bad input, and the end of the game; and
//! `nimlab serve`'s computation slots.

mod common;

use std::io::Write;
use std::process::Stdio;

fn play(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut child = common::cmd()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nimlab play");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_piped_game_of_cn53_ends_with_the_computer_winning() {
    // (1,2,3,4,5) is an N-position: the computer moves first and wins whatever we answer.
    // We always empty the first non-empty stack, with a few bad inputs on the way.
    let mut input = String::from("hint\nexplain\nfoo\n9,9,9,9,9\n0,0,0,0,0,0\nw 9 0,0,0\n");
    for _ in 0..20 {
        // Written as a window move so that it works whatever the position is: w S 0,h,h with the
        // first stack of the window emptied would depend on the position; instead we try each stack.
        for s in 1..=5 {
            input.push_str(&format!("w {s} 0,0,0\n"));
        }
    }
    let (out, err, code) = play(&["CN(5,3)", "1,2,3,4,5", "--computer", "first"], &input);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("The computer moves first."), "{out}");
    assert!(out.starts_with("CN(5,3), normal play."), "{out}");
    assert!(out.contains("position: (1,2,3,4,5) — N"), "{out}");
    assert!(out.contains("computer: (1,2,3,4,5) -> "), "{out}");
    // Every computer move from the start wins: the positions it leaves are P.
    for line in out.lines().filter(|l| l.starts_with("computer:")) {
        assert!(line.contains("a winning move"), "{line}");
    }
    assert!(out.contains("not a move:"), "{out}");
    assert!(
        out.contains("illegal move") || out.contains("window start"),
        "{out}"
    );
    assert!(out.contains("hint: no winning move exists"), "{out}");
    assert!(out.contains("source: "), "explain names the theorem: {out}");
    assert!(out.contains("The computer wins."), "{out}");
    // The moves typed after the end are answered, not played.
    assert!(
        out.contains("the game is over: type undo, new or quit"),
        "{out}"
    );
    assert!(!out.contains("end of input"), "{out}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn hint_undo_and_a_human_win_in_nim() {
    // nim 1,2 is N; we play the winning moves ourselves: 1,1, then after the computer's move the
    // remaining single heap is taken.
    let input = "hint\n1,1\nundo\nundo\n1,1\n0,0\n1,0\n0,1\n0,0\n";
    let (out, err, code) = play(&["nim", "1,2"], input);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("hint: winning move: (1,1)"), "{out}");
    assert!(
        out.contains("you: (1,2) -> (1,1) (a winning move)"),
        "{out}"
    );
    assert!(out.contains("undone; position: (1,2)"), "{out}");
    assert!(out.contains("nothing of yours to undo"), "{out}");
    assert!(out.contains("You win!"), "{out}");
}

#[test]
fn undo_and_new_after_the_game_ends() {
    // nim 1,2: 1,1 (winning); the computer leaves one heap of 1 (0,1 is refused whichever it is:
    // nothing taken, or a stack raised), we take it and win. Undo then takes back our winning move
    // only; we win again, and a move typed after the end is refused.
    let input = "1,1\n0,1\n0,0\nundo\n0,0\n1,1\nnew\nquit\n";
    let (out, err, code) = play(&["nim", "1,2"], input);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(out.matches("You win!").count(), 2, "{out}");
    assert!(out.contains("game over> "), "{out}");
    // After the win: undo goes back to the position before our winning move.
    let after_win = &out[out.find("You win!").unwrap()..];
    assert!(after_win.contains("undone; position: "), "{out}");
    // A move typed once the game is over again is refused; new starts from the given position.
    assert!(
        out.contains("the game is over: type undo, new or quit"),
        "{out}"
    );
    assert!(out.contains("new game; position: (1,2) — N"), "{out}");
    assert!(out.trim_end().ends_with("bye"), "{out}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn misere_random_start_quit_and_end_of_input() {
    let (out, _, code) = play(&["SCN(5,3)", "--misere", "--seed", "3"], "show\nquit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("misere play"), "{out}");
    assert!(out.trim_end().ends_with("bye"), "{out}");
    let (out, _, code) = play(&["ET(3)", "--seed", "5"], "help\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("end of input"), "{out}");
}

#[test]
fn bad_games_and_positions_are_refused_up_front() {
    for (args, needle) in [
        (vec!["CN(5,9)"], "window size"),
        (vec!["nope"], "unknown game"),
        (vec!["CN(5,3)", "1,2,3"], "5"),
        (vec!["nim[3]+nim[4]"], "`nimlab moves 'nim[3]+nim[4]'`"),
        (vec!["sub.rhai"], "a scripted game has no random start"),
        (
            vec!["CN(9,5)", "900,900,900,900,900,900,900,900,900"],
            "large",
        ),
    ] {
        let (out, err, code) = play(&args, "");
        assert_eq!(code, Some(2), "{args:?}: {out} {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        common::assert_one_line(&args, &err);
    }
}

/// `nimlab serve --quick-slots N --research-slots N`: the counts reach the server (it names them
/// when it starts), and a count of 0, past the most or not a number is refused in one line before
/// anything listens.
#[test]
fn serve_takes_its_computation_slots() {
    use std::io::{BufRead, BufReader};
    for (args, needle) in [
        (vec!["serve", "--quick-slots", "0"], "at least 1 slot"),
        (vec!["serve", "--research-slots", "0"], "at least 1 slot"),
        (vec!["serve", "--research-slots", "65"], "at most 64"),
        (
            vec!["serve", "--quick-slots", "two"],
            "not a number of slots",
        ),
        (vec!["serve", "--quick-slots", "-1"], "--quick-slots"),
    ] {
        common::fails(&args, needle);
    }
    let mut server = common::cmd()
        .args([
            "serve",
            "--port",
            "0",
            "--quick-slots",
            "1",
            "--research-slots",
            "3",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    assert!(
        line.contains("1 quick and 3 research computation slots"),
        "{line}"
    );
}
